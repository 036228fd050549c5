// clacc kernel: sin float w8 (Unary), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global float *out0)
{
    size_t g = get_global_id(0);
    float8 a0 = vload8(g, in0);
    float8 r0 = sin(a0);
    vstore8(r0, g, out0);
}
