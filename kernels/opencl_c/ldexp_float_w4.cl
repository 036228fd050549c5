// clacc kernel: ldexp float w4 (FloatInt), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global const int *in1, __global float *out0)
{
    size_t g = get_global_id(0);
    float4 a0 = vload4(g, in0);
    int4 a1 = vload4(g, in1);
    float4 r0 = ldexp(a0, a1);
    vstore4(r0, g, out0);
}
