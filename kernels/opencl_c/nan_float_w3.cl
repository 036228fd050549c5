// clacc kernel: nan float w3 (Nan), OpenCL C
__kernel void clacc_kernel(__global const uint *in0, __global float *out0)
{
    size_t g = get_global_id(0);
    uint3 a0 = vload3(g, in0);
    float3 r0 = nan(a0);
    vstore3(r0, g, out0);
}
