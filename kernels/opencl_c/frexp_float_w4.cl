// clacc kernel: frexp float w4 (WithIntOut), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global float *out0, __global int *out1)
{
    size_t g = get_global_id(0);
    float4 a0 = vload4(g, in0);
    int4 r1;
    float4 r0 = frexp(a0, &r1);
    vstore4(r0, g, out0);
    vstore4(r1, g, out1);
}
