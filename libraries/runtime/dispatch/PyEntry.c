/*===- PyEntry.c - CPython entry points of a CAKE kernel library's dispatcher -===*
 *
 * The module `_cake_native`: kmeans_assign and kmeans_assign_variant as METH_FASTCALL functions
 * that call libcake_library.so's C ABI (linked, found through $ORIGIN, so that both share one
 * dispatcher state: loaded modules, tensor maps, workspaces, the last error). It exists for the
 * host time per call: ctypes converts ten arguments through argtypes objects. On the CPU machine
 * with the fake driver (bench/library/dispatch_host_cpu.py, paired rounds) a call cost 1.6-1.9 us
 * through ctypes and 0.17-0.39 us through these entry points, of which the C++ dispatcher is
 * 0.12-0.22 us.
 *
 * Built against the stable ABI of CPython 3.10 (Py_LIMITED_API), so one build serves every
 * CPython >= 3.10; cake_library/native.py falls back to ctypes where it does not load.
 *
 *===----------------------------------------------------------------------===*/

#define PY_SSIZE_T_CLEAN
#define Py_LIMITED_API 0x030A0000
#include <Python.h>

#include <stdint.h>

const char *cake_library_error(void);
int cake_library_kmeans_assign(uint64_t x, uint64_t c, uint64_t csq, uint64_t out, int64_t B,
                               int64_t N, int64_t D, int64_t K, int dtype, void *stream);
int cake_library_kmeans_assign_variant(int index, uint64_t x, uint64_t c, uint64_t csq,
                                       uint64_t out, int64_t B, int64_t N, int64_t D, int64_t K,
                                       int dtype, void *stream);

/* The dispatcher's return code as Python: None, ValueError (-1: no kernel, a bad shape or
   pointer) or RuntimeError (-2: the driver), with the dispatcher's message. */
static PyObject *result(int rc) {
  if (rc == 0)
    Py_RETURN_NONE;
  PyErr_SetString(rc == -1 ? PyExc_ValueError : PyExc_RuntimeError, cake_library_error());
  return NULL;
}

/* args[first..first+9]: x c csq out (device addresses), B N D K, dtype code, stream (an int
   handle or None). 0 with an exception set when one is not an int that fits. */
static int unpack(PyObject *const *args, Py_ssize_t first, uint64_t ptr[4], int64_t size[4],
                  int *dtype, void **stream) {
  for (int i = 0; i < 4; ++i) {
    ptr[i] = PyLong_AsUnsignedLongLong(args[first + i]);
    if (ptr[i] == (uint64_t)-1 && PyErr_Occurred())
      return 0;
  }
  for (int i = 0; i < 4; ++i) {
    size[i] = PyLong_AsLongLong(args[first + 4 + i]);
    if (size[i] == -1 && PyErr_Occurred())
      return 0;
  }
  long code = PyLong_AsLong(args[first + 8]);
  if (code == -1 && PyErr_Occurred())
    return 0;
  *dtype = (int)code;
  PyObject *s = args[first + 9];
  *stream = NULL;
  if (s != Py_None) {
    unsigned long long handle = PyLong_AsUnsignedLongLong(s);
    if (handle == (unsigned long long)-1 && PyErr_Occurred())
      return 0;
    *stream = (void *)(uintptr_t)handle;
  }
  return 1;
}

static PyObject *kmeans_assign(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 10) {
    PyErr_SetString(PyExc_TypeError,
                    "kmeans_assign(x, c, csq, out, B, N, D, K, dtype, stream): 10 arguments");
    return NULL;
  }
  uint64_t p[4];
  int64_t s[4];
  int dtype;
  void *stream;
  if (!unpack(args, 0, p, s, &dtype, &stream))
    return NULL;
  return result(cake_library_kmeans_assign(p[0], p[1], p[2], p[3], s[0], s[1], s[2], s[3], dtype,
                                           stream));
}

static PyObject *kmeans_assign_variant(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 11) {
    PyErr_SetString(PyExc_TypeError, "kmeans_assign_variant(index, x, c, csq, out, B, N, D, K, "
                                     "dtype, stream): 11 arguments");
    return NULL;
  }
  long index = PyLong_AsLong(args[0]);
  if (index == -1 && PyErr_Occurred())
    return NULL;
  uint64_t p[4];
  int64_t s[4];
  int dtype;
  void *stream;
  if (!unpack(args, 1, p, s, &dtype, &stream))
    return NULL;
  return result(cake_library_kmeans_assign_variant((int)index, p[0], p[1], p[2], p[3], s[0], s[1],
                                                   s[2], s[3], dtype, stream));
}

static PyMethodDef methods[] = {
    {"kmeans_assign", (PyCFunction)(void (*)(void))kmeans_assign, METH_FASTCALL,
     "kmeans_assign(x, c, csq, out, B, N, D, K, dtype, stream): cake_library_kmeans_assign; "
     "None, or ValueError / RuntimeError with the dispatcher's message."},
    {"kmeans_assign_variant", (PyCFunction)(void (*)(void))kmeans_assign_variant, METH_FASTCALL,
     "kmeans_assign_variant(index, x, c, csq, out, B, N, D, K, dtype, stream): "
     "cake_library_kmeans_assign_variant, raising as kmeans_assign."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cake_native",
                                    "CPython entry points of libcake_library.so.", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__cake_native(void) { return PyModule_Create(&module); }
