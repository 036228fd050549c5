// clacc kernel: nan float w1 (Nan), OpenCL C
__kernel void clacc_kernel(__global const uint *in0, __global float *out0)
{
    size_t g = get_global_id(0);
    uint a0 = in0[g];
    float r0 = nan(a0);
    out0[g] = r0;
}
