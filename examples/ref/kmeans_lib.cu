// Reference kernels for the KMeans library's unstaged kernels (x [B, N, D], c [B, K, D], csq [B, K],
// idx [B, N] with the symbols B, N, K, D; the `flat` ones for kernels that read x and c as flat
// arrays with the symbols BND and BKD too; the `staged` ones for the TMA kernels), one per dtype: what the tasks of
// libraries/kmeans/evolve.py check each candidate against; see kmeans_reference.cuh.
#include "kmeans_reference.cuh"

CAKE_KMEANS_REFERENCE_ANY_D(kmeans_lib_float16, __half)
CAKE_KMEANS_REFERENCE_ANY_D(kmeans_lib_bfloat16, __nv_bfloat16)
CAKE_KMEANS_REFERENCE_ANY_D(kmeans_lib_float32, float)

CAKE_KMEANS_REFERENCE_FLAT(kmeans_lib_flat_float16, __half)
CAKE_KMEANS_REFERENCE_FLAT(kmeans_lib_flat_bfloat16, __nv_bfloat16)
CAKE_KMEANS_REFERENCE_FLAT(kmeans_lib_flat_float32, float)

CAKE_KMEANS_REFERENCE_STAGED(kmeans_lib_staged_float16, __half)
CAKE_KMEANS_REFERENCE_STAGED(kmeans_lib_staged_bfloat16, __nv_bfloat16)
CAKE_KMEANS_REFERENCE_STAGED(kmeans_lib_staged_float32, float)
