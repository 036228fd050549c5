// clacc kernel: fma float w2 (Ternary), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global const float *in1, __global const float *in2, __global float *out0)
{
    size_t g = get_global_id(0);
    float2 a0 = vload2(g, in0);
    float2 a1 = vload2(g, in1);
    float2 a2 = vload2(g, in2);
    float2 r0 = fma(a0, a1, a2);
    vstore2(r0, g, out0);
}
