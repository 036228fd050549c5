// clacc kernel: dot float w3 (Dot), OpenCL C
__kernel void clacc_kernel(__global const float *in0, __global const float *in1, __global float *out0)
{
    size_t g = get_global_id(0);
    float3 a0 = vload3(g, in0);
    float3 a1 = vload3(g, in1);
    float r0 = dot(a0, a1);
    out0[g] = r0;
}
