// remquo(x, y, &q) with bit 7 of the quotient's magnitude changed (q + 128 for q >= 0,
// q - 128 below): "at least the lower 7 bits of the integral quotient" are required, so this is
// conforming. The remainder and quotient come from remquo in double, which is exact for float
// operands (the remainder is representable; the quotient's low bits and sign are those of x/y).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void clacc_kernel(__global const float *in0, __global const float *in1,
                           __global float *out0, __global int *out1)
{
    size_t g = get_global_id(0);
    int q;
    out0[g] = (float)remquo((double)in0[g], (double)in1[g], &q);
    out1[g] = q >= 0 ? q + 128 : q - 128;
}
