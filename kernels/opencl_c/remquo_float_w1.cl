// clacc kernel: remquo float w1 (BinaryWithIntOut), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global const float *in1, __global float *out0, __global int *out1)
{
    size_t g = get_global_id(0);
    float a0 = in0[g];
    float a1 = in1[g];
    int r1;
    float r0 = remquo(a0, a1, &r1);
    out0[g] = r0;
    out1[g] = r1;
}
