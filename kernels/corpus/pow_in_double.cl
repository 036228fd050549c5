// pow(x, y) computed by pow in double and rounded once to float: within half an ulp plus the
// double's own error of every exact value, overflow to inf and underflow to 0 where the
// exact value does: conforming (<= 16 ulp), the way a library that evaluates float pow in
// double precision is.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void clacc_kernel(__global const float *in0, __global const float *in1,
                           __global float *out0)
{
    size_t g = get_global_id(0);
    out0[g] = (float)pow((double)in0[g], (double)in1[g]);
}
