// clacc kernel: sincos float w3 (WithFloatOut), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global float *out0, __global float *out1)
{
    size_t g = get_global_id(0);
    float3 a0 = vload3(g, in0);
    float3 r1;
    float3 r0 = sincos(a0, &r1);
    vstore3(r0, g, out0);
    vstore3(r1, g, out1);
}
