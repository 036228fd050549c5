// clacc kernel: fma float w1 (Ternary), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global const float *in1, __global const float *in2, __global float *out0)
{
    size_t g = get_global_id(0);
    float a0 = in0[g];
    float a1 = in1[g];
    float a2 = in2[g];
    float r0 = fma(a0, a1, a2);
    out0[g] = r0;
}
