// clacc kernel: fma float w16 (Ternary), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global const float *in1, __global const float *in2, __global float *out0)
{
    size_t g = get_global_id(0);
    float16 a0 = vload16(g, in0);
    float16 a1 = vload16(g, in1);
    float16 a2 = vload16(g, in2);
    float16 r0 = fma(a0, a1, a2);
    vstore16(r0, g, out0);
}
