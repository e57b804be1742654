// Reference kernels for the harness task agent/tasks/kmeans_bf16.json (bf16 points, D = 128):
// kmeans_fp16.cu's with bf16 inputs; see kmeans_reference.cuh.
#include "kmeans_reference.cuh"

CAKE_KMEANS_REFERENCE(kmeans_bf16, __nv_bfloat16, 128)
