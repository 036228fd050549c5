// sqrt(x) as far from the exact value as the OpenCL C float table lets sqrt be (<= 3 ulp): the
// exact root rounded toward zero (the double root, correctly rounded, then convert_float_rtz:
// a float root lies at least 2^-26 ulp from any float it is not, so the double cannot cross
// one), then 3 steps up the float grid. The error is in (2, 3] ulp, exactly 3 where the root is
// representable (x = 9, 2.25, ...). Where the RTZ root is a power of two, or within 3 steps of
// the next one, the steps would cross into a wider binade (ulp(2^k) is the smaller gap below
// 2^k, "Relative Error as ULPs"), so it takes 1 step there; infinities and NaNs stay as they
// are. Conforming: RTZ results plus the bound stay within it. The OpenCL C twin of
// sqrt_at_bound.spvasm.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void clacc_kernel(__global const float *in0, __global float *out0)
{
    size_t g = get_global_id(0);
    float s = convert_float_rtz(sqrt((double)in0[g]));
    uint bits = as_uint(s);
    uint mantissa = bits & 0x7fffffu;
    uint steps = (mantissa == 0u || mantissa > 0x7ffffcu) ? 1u : 3u;
    out0[g] = isfinite(s) ? as_float(bits + steps) : s;
}
