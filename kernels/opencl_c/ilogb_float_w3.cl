// clacc kernel: ilogb float w3 (IntResult), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global int *out0)
{
    size_t g = get_global_id(0);
    float3 a0 = vload3(g, in0);
    int3 r0 = ilogb(a0);
    vstore3(r0, g, out0);
}
