// clacc kernel: fma float w8 (Ternary), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global const float *in1, __global const float *in2, __global float *out0)
{
    size_t g = get_global_id(0);
    float8 a0 = vload8(g, in0);
    float8 a1 = vload8(g, in1);
    float8 a2 = vload8(g, in2);
    float8 r0 = fma(a0, a1, a2);
    vstore8(r0, g, out0);
}
