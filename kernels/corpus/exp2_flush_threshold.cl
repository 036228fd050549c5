// exp2(x) on a flushing device: exp2 in double, rounded, and results of magnitude below
// FLT_MIN flushed to zero. exp2(-126) = FLT_MIN exactly is normal, but FLT_MIN - 1 ulp is a
// subnormal within the 3 ulp bound, so a conforming result may be subnormal and so flushed
// ("If the result given by 1. is a sub-normal before rounding, it may be flushed to zero").
// Conforming with --denorms-are-zero (ftz-result); without it the zeros for exp2(-127) fail.
// The comparison is on the bits, so no flushing of the compiler's own can blur it.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void clacc_kernel(__global const float *in0, __global float *out0)
{
    size_t g = get_global_id(0);
    float r = (float)exp2((double)in0[g]);
    out0[g] = (as_uint(r) & 0x7fffffffu) < 0x00800000u ? 0.0f : r;
}
