// clacc kernel: fma float w4 (Ternary), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global const float *in1, __global const float *in2, __global float *out0)
{
    size_t g = get_global_id(0);
    float4 a0 = vload4(g, in0);
    float4 a1 = vload4(g, in1);
    float4 a2 = vload4(g, in2);
    float4 r0 = fma(a0, a1, a2);
    vstore4(r0, g, out0);
}
