// mad(x, y, z) as a float multiply then a float add, each correctly rounded: one of the two
// implementations the float table allows for mad (a compiler that contracts them into an fma
// gives the other). FP_CONTRACT OFF keeps this one the multiply-then-add.
#pragma OPENCL FP_CONTRACT OFF

__kernel void clacc_kernel(__global const float *in0, __global const float *in1,
                           __global const float *in2, __global float *out0)
{
    size_t g = get_global_id(0);
    float product = in0[g] * in1[g];
    out0[g] = product + in2[g];
}
