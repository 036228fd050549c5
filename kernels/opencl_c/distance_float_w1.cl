// clacc kernel: distance float w1 (Distance), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global const float *in1, __global float *out0)
{
    size_t g = get_global_id(0);
    float a0 = in0[g];
    float a1 = in1[g];
    float r0 = distance(a0, a1);
    out0[g] = r0;
}
