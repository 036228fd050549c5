// clacc kernel: sin float w2 (Unary), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global float *out0)
{
    size_t g = get_global_id(0);
    float2 a0 = vload2(g, in0);
    float2 r0 = sin(a0);
    vstore2(r0, g, out0);
}
