// fmax(x, y) written as x > y ? x : y: a NaN y makes the comparison false and returns the NaN,
// where "if one argument is a NaN, fmax() returns the other argument". A wrong edge case that
// the ULP sweep (fmax is exact: 0 ulp) must catch.
__kernel void clacc_kernel(__global const float *in0, __global const float *in1,
                           __global float *out0)
{
    size_t g = get_global_id(0);
    float x = in0[g];
    float y = in1[g];
    out0[g] = x > y ? x : y;
}
