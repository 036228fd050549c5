// acosh(x) as the unsafe-math table's derived formula log(x + sqrt(x*x - 1)), each operation in
// float: x*x, x*x - 1 and x + s in float (FP_CONTRACT OFF: no fma in between), so x*x
// overflows to +inf for x >= 2^64 as a correctly rounded float multiply must; sqrt and log
// computed in double and rounded to float (well within their own bounds). log(s) is taken as
// log1p(s - 1) in double (s >= 1 is a float, so s - 1 is exact): the Intel CPU runtime builds
// double log and log2 under -cl-fast-relaxed-math but cannot run them ("JIT session error:
// Symbols not found: [ _Z6log_rmDv8_d, _Z6log_rmd ]"). Conforming under
// --profile relaxed: the overflow of an intermediate step is what the formula permits. Judged
// by the full profile's table (<= 4 ulp) it fails: +inf for acosh(2^64) is no 4-ulp result.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

__kernel void clacc_kernel(__global const float *in0, __global float *out0)
{
    size_t g = get_global_id(0);
    float x = in0[g];
    float square = x * x;
    float inner = square - 1.0f;
    float root = (float)sqrt((double)inner);
    float sum = x + root;
    out0[g] = (float)log1p((double)sum - 1.0);
}
