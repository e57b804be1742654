// Reference kernels for the harness task agent/tasks/kmeans_fp16.json (fp16 points, D = 128): the
// parameters of examples/kmeans_hopper.mlir without the TMA descriptors; see kmeans_reference.cuh.
#include "kmeans_reference.cuh"

CAKE_KMEANS_REFERENCE(kmeans_fp16, __half, 128)
