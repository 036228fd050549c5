// clacc kernel: frexp float w1 (WithIntOut), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global float *out0, __global int *out1)
{
    size_t g = get_global_id(0);
    float a0 = in0[g];
    int r1;
    float r0 = frexp(a0, &r1);
    out0[g] = r0;
    out1[g] = r1;
}
