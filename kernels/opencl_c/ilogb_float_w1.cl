// clacc kernel: ilogb float w1 (IntResult), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global int *out0)
{
    size_t g = get_global_id(0);
    float a0 = in0[g];
    int r0 = ilogb(a0);
    out0[g] = r0;
}
