// ilogb(x) on a device that flushes: a subnormal x is read as a zero of its own sign ("Edge
// Case Behavior in Flush To Zero Mode", result 3), so ilogb returns FP_ILOGB0 for it. Computed
// from the bits alone (the exponent field less 127), FP_ILOGBNAN for a NaN and INT_MAX for an
// infinity. Conforming with --denorms-are-zero (the integer output gets the operand rule:
// ftz-operands); without it the device has denormals and ilogb(subnormal) must be exact, so it
// fails.
__kernel void clacc_kernel(__global const float *in0, __global int *out0)
{
    size_t g = get_global_id(0);
    uint magnitude = as_uint(in0[g]) & 0x7fffffffu;
    int r;
    if (magnitude > 0x7f800000u)
        r = FP_ILOGBNAN;
    else if (magnitude == 0x7f800000u)
        r = INT_MAX;
    else if (magnitude < 0x00800000u)
        r = FP_ILOGB0;
    else
        r = (int)(magnitude >> 23) - 127;
    out0[g] = r;
}
