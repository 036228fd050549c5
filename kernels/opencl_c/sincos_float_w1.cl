// clacc kernel: sincos float w1 (WithFloatOut), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global float *out0, __global float *out1)
{
    size_t g = get_global_id(0);
    float a0 = in0[g];
    float r1;
    float r0 = sincos(a0, &r1);
    out0[g] = r0;
    out1[g] = r1;
}
