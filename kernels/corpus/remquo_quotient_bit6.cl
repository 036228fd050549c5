// remquo(x, y, &q) with bit 6 of the quotient's magnitude flipped: one of the 7 low bits the
// spec requires. A checker must fail it. Otherwise as remquo_quotient_bit7.cl.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void clacc_kernel(__global const float *in0, __global const float *in1,
                           __global float *out0, __global int *out1)
{
    size_t g = get_global_id(0);
    int q;
    out0[g] = (float)remquo((double)in0[g], (double)in1[g], &q);
    out1[g] = q >= 0 ? (q ^ 64) : -((-q) ^ 64);
}
