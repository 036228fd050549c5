// clacc kernel: sin float w4 (Unary), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global float *out0)
{
    size_t g = get_global_id(0);
    float4 a0 = vload4(g, in0);
    float4 r0 = sin(a0);
    vstore4(r0, g, out0);
}
