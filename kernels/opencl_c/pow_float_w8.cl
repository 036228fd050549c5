// clacc kernel: pow float w8 (Binary), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global const float *in1, __global float *out0)
{
    size_t g = get_global_id(0);
    float8 a0 = vload8(g, in0);
    float8 a1 = vload8(g, in1);
    float8 r0 = pow(a0, a1);
    vstore8(r0, g, out0);
}
