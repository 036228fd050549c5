// clacc kernel: fadd float w16 (Binary), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global const float *in1, __global float *out0)
{
    size_t g = get_global_id(0);
    float16 a0 = vload16(g, in0);
    float16 a1 = vload16(g, in1);
    float16 r0 = a0 + a1;
    vstore16(r0, g, out0);
}
