// mad(x, y, z) as a float multiply then a float add, each correctly rounded, whose sum is then
// scaled by 1 + 2^-22 (the float after 1 is 1 + 2^-23): one to three ulp off the
// multiply-then-add result for almost every input. "Implemented either as a correctly rounded
// fma or as a multiply followed by an add both of which are correctly rounded" allows neither:
// a defect.
#pragma OPENCL FP_CONTRACT OFF

__kernel void clacc_kernel(__global const float *in0, __global const float *in1,
                           __global const float *in2, __global float *out0)
{
    size_t g = get_global_id(0);
    float product = in0[g] * in1[g];
    float sum = product + in2[g];
    out0[g] = sum * 0x1.000004p+0f;
}
