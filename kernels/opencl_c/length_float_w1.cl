// clacc kernel: length float w1 (Length), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global float *out0)
{
    size_t g = get_global_id(0);
    float a0 = in0[g];
    float r0 = length(a0);
    out0[g] = r0;
}
