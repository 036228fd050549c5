// clacc kernel: sin float w16 (Unary), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global float *out0)
{
    size_t g = get_global_id(0);
    float16 a0 = vload16(g, in0);
    float16 r0 = sin(a0);
    vstore16(r0, g, out0);
}
