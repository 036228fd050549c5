// sin(x) computed in double and rounded, but +0 for -0: a wrong sign of zero. The ULP tables
// compare zeros by value, so the ULP sweep passes; the edge-case rule "sin(±0) returns ±0"
// fails it (the edge unit must check this kernel, not clacc's own).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void clacc_kernel(__global const float *in0, __global float *out0)
{
    size_t g = get_global_id(0);
    float x = in0[g];
    float r = (float)sin((double)x);
    // as_uint: a comparison with -0.0f would match +0 too.
    out0[g] = as_uint(x) == 0x80000000u ? 0.0f : r;
}
