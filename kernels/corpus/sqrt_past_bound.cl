// As sqrt_at_bound.cl, but 4 steps up for x in [1, 1 + 2^-20]: just past the 3 ulp of float
// sqrt in a narrow window (x = 1 gives 8 ulp: 4 gaps of 2^-23 above 1, whose ulp is 2^-24). A
// checker must catch it: <= 3 ulp fails.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void clacc_kernel(__global const float *in0, __global float *out0)
{
    size_t g = get_global_id(0);
    float x = in0[g];
    float s = convert_float_rtz(sqrt((double)x));
    uint bits = as_uint(s);
    uint mantissa = bits & 0x7fffffu;
    uint steps = (mantissa == 0u || mantissa > 0x7ffffcu) ? 1u : 3u;
    if (x >= 1.0f && x <= 0x1.00001p+0f)
        steps = 4u;
    out0[g] = isfinite(s) ? as_float(bits + steps) : s;
}
