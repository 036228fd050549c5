// clacc kernel: fadd float w2 (Binary), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global const float *in1, __global float *out0)
{
    size_t g = get_global_id(0);
    float2 a0 = vload2(g, in0);
    float2 a1 = vload2(g, in1);
    float2 r0 = a0 + a1;
    vstore2(r0, g, out0);
}
