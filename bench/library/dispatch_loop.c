/* The generated C++ dispatcher's own cost per call on a CPU machine: a C loop over
 * cake_library_kmeans_assign against the fake driver (no foreign-call layer), best of 7 rounds of
 * 100,000 calls for two shapes.
 *
 *   cc -O2 bench/library/dispatch_loop.c -o /tmp/dispatch_loop -ldl
 *   LD_LIBRARY_PATH=/tmp/fake /tmp/dispatch_loop PKG/cake_library/library/libcake_library.so \
 *       PKG/cake_library/library/kernels
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

typedef int (*Assign)(uint64_t, uint64_t, uint64_t, uint64_t, int64_t, int64_t, int64_t, int64_t,
                      int, void *);

static double nowNs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s LIBCAKE_LIBRARY.so KERNEL_DIR\n", argv[0]);
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  void (*setDir)(const char *) = (void (*)(const char *))dlsym(lib, "cake_library_set_kernel_dir");
  Assign assign = (Assign)dlsym(lib, "cake_library_kmeans_assign");
  if (!setDir || !assign) {
    fprintf(stderr, "not a CAKE kernel library: %s\n", argv[1]);
    return 1;
  }
  setDir(argv[2]);
  const int64_t shapes[2][5] = {{1, 4096, 64, 256, 0}, {4, 997, 7, 67, 1}}; /* B N D K dtype */
  for (int s = 0; s < 2; ++s) {
    const int64_t *p = shapes[s];
    int rc = assign(0x100000, 0x200000, 0x300000, 0x400000, p[0], p[1], p[2], p[3], (int)p[4], 0);
    double best = 1e18;
    for (int r = 0; r < 7; ++r) {
      double t = nowNs();
      for (int i = 0; i < 100000; ++i)
        assign(0x100000, 0x200000, 0x300000, 0x400000, p[0], p[1], p[2], p[3], (int)p[4], 0);
      double perCall = (nowNs() - t) / 100000;
      best = perCall < best ? perCall : best;
    }
    printf("B=%lld N=%lld D=%lld K=%lld dtype=%lld: rc %d, %.1f ns per call\n", (long long)p[0],
           (long long)p[1], (long long)p[2], (long long)p[3], (long long)p[4], rc, best);
  }
  return 0;
}
