// exp(x) computed in double and rounded, but a NaN for x in [1, 1 + 2^-20]: a NaN where a
// number is due is an infinite error, whatever the bound. A defect.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void clacc_kernel(__global const float *in0, __global float *out0)
{
    size_t g = get_global_id(0);
    float x = in0[g];
    float r = (float)exp((double)x);
    out0[g] = (x >= 1.0f && x <= 0x1.00001p+0f) ? as_float(0x7fc00000u) : r;
}
