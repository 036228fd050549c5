// clacc kernel: nan float w4 (Nan), OpenCL C
__kernel void clacc_kernel(__global const uint *in0, __global float *out0)
{
    size_t g = get_global_id(0);
    uint4 a0 = vload4(g, in0);
    float4 r0 = nan(a0);
    vstore4(r0, g, out0);
}
