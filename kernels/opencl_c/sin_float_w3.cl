// clacc kernel: sin float w3 (Unary), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global float *out0)
{
    size_t g = get_global_id(0);
    float3 a0 = vload3(g, in0);
    float3 r0 = sin(a0);
    vstore3(r0, g, out0);
}
