// clacc kernel: fmul_fadd float w3 (Ternary), OpenCL C
#pragma OPENCL FP_CONTRACT OFF
__kernel void clacc_kernel(__global const float *in0, __global const float *in1, __global const float *in2, __global float *out0)
{
    size_t g = get_global_id(0);
    float3 a0 = vload3(g, in0);
    float3 a1 = vload3(g, in1);
    float3 a2 = vload3(g, in2);
    float3 r0 = a0 * a1 + a2;
    vstore3(r0, g, out0);
}
