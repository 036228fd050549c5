// clacc kernel: ilogb float w4 (IntResult), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global int *out0)
{
    size_t g = get_global_id(0);
    float4 a0 = vload4(g, in0);
    int4 r0 = ilogb(a0);
    vstore4(r0, g, out0);
}
