// frexp(x, &e) with a subnormal x read as a zero of its own sign (FTZ result 3): (±0, 0).
// Computed from the bits: a normal x = m * 2^e with m in [0.5, 1) gets the exponent field of
// 126 and e = field - 126; zeros, infinities and NaNs return x itself with e = 0. Conforming
// with --denorms-are-zero (mantissa and exponent both by the operand rule); a failure without
// it.
__kernel void clacc_kernel(__global const float *in0, __global float *out0, __global int *out1)
{
    size_t g = get_global_id(0);
    float x = in0[g];
    uint bits = as_uint(x);
    uint field = (bits >> 23) & 0xffu;
    if (field == 0u) {
        out0[g] = as_float(bits & 0x80000000u);
        out1[g] = 0;
    } else if (field == 0xffu) {
        out0[g] = x;
        out1[g] = 0;
    } else {
        out0[g] = as_float((bits & 0x807fffffu) | (126u << 23));
        out1[g] = (int)field - 126;
    }
}
