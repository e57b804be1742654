/*===- PyEntry.c - CPython entry points of a CAKE kernel library's dispatcher -===*
 *
 * The module `_cake_native`: kmeans_assign and kmeans_assign_variant as METH_FASTCALL functions
 * that call libcake_library.so's C ABI. It exists for the host time per call: ctypes converts ten
 * arguments through argtypes objects. On the CPU machine with the fake driver
 * (bench/library/dispatch_host_cpu.py, paired rounds) a call cost 1.6-1.9 us through ctypes and
 * 0.17-0.38 us through these entry points, of which the C++ dispatcher is 0.12-0.24 us
 * (bench/library/dispatch_loop.c).
 *
 * The module does not link the library: `bind` takes the addresses of the library's functions
 * from the ctypes handle that cake_library/native.py already holds, so both share one dispatcher
 * state (loaded modules, tensor maps, workspaces, the last error). (Linked through $ORIGIN, a
 * second library in the same process would have been bound to the first: the dynamic linker
 * matches a needed "libcake_library.so" against the libraries already loaded by that name.)
 * Each package has its own copy of this module, so its static bindings serve one library.
 *
 * Built against the stable ABI of CPython 3.10 (Py_LIMITED_API), so one build serves every
 * CPython >= 3.10; native.py falls back to ctypes where it does not load.
 *
 *===----------------------------------------------------------------------===*/

#define PY_SSIZE_T_CLEAN
#define Py_LIMITED_API 0x030A0000
#include <Python.h>

#include <stdint.h>

/* The library's C ABI (Dispatch.cpp), bound by `bind`. */
typedef const char *(*ErrorFn)(void);
typedef int (*AssignFn)(uint64_t x, uint64_t c, uint64_t csq, uint64_t out, int64_t B, int64_t N,
                        int64_t D, int64_t K, int dtype, void *stream);
typedef int (*AssignVariantFn)(int index, uint64_t x, uint64_t c, uint64_t csq, uint64_t out,
                               int64_t B, int64_t N, int64_t D, int64_t K, int dtype, void *stream);
static ErrorFn errorFn;
static AssignFn assignFn;
static AssignVariantFn assignVariantFn;

/* The dispatcher's return code as Python: None, ValueError (-1: no kernel, a bad shape or
   pointer) or RuntimeError (-2: the driver), with the dispatcher's message. */
static PyObject *result(int rc) {
  if (rc == 0)
    Py_RETURN_NONE;
  PyErr_SetString(rc == -1 ? PyExc_ValueError : PyExc_RuntimeError, errorFn());
  return NULL;
}

/* 0 with RuntimeError set when `bind` has not run. */
static int bound(void) {
  if (errorFn && assignFn && assignVariantFn)
    return 1;
  PyErr_SetString(PyExc_RuntimeError, "_cake_native: bind() the library's functions first");
  return 0;
}

static PyObject *bind(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 3) {
    PyErr_SetString(PyExc_TypeError, "bind(error, kmeans_assign, kmeans_assign_variant): the "
                                     "addresses of cake_library_error, cake_library_kmeans_assign "
                                     "and cake_library_kmeans_assign_variant");
    return NULL;
  }
  void *fn[3];
  for (int i = 0; i < 3; ++i) {
    fn[i] = PyLong_AsVoidPtr(args[i]);
    if (PyErr_Occurred())
      return NULL;
    if (!fn[i]) {
      PyErr_SetString(PyExc_ValueError, "bind: a null function address");
      return NULL;
    }
  }
  errorFn = (ErrorFn)fn[0];
  assignFn = (AssignFn)fn[1];
  assignVariantFn = (AssignVariantFn)fn[2];
  Py_RETURN_NONE;
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
  if (!bound() || !unpack(args, 0, p, s, &dtype, &stream))
    return NULL;
  return result(assignFn(p[0], p[1], p[2], p[3], s[0], s[1], s[2], s[3], dtype, stream));
}

static PyObject *kmeans_assign_variant(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 11) {
    PyErr_SetString(PyExc_TypeError, "kmeans_assign_variant(index, x, c, csq, out, B, N, D, K, "
                                     "dtype, stream): 11 arguments");
    return NULL;
  }
  if (!bound())
    return NULL;
  long index = PyLong_AsLong(args[0]);
  if (index == -1 && PyErr_Occurred())
    return NULL;
  uint64_t p[4];
  int64_t s[4];
  int dtype;
  void *stream;
  if (!unpack(args, 1, p, s, &dtype, &stream))
    return NULL;
  return result(assignVariantFn((int)index, p[0], p[1], p[2], p[3], s[0], s[1], s[2], s[3], dtype,
                                stream));
}

static PyMethodDef methods[] = {
    {"bind", (PyCFunction)(void (*)(void))bind, METH_FASTCALL,
     "bind(error, kmeans_assign, kmeans_assign_variant): the addresses of the library's "
     "cake_library_error, cake_library_kmeans_assign and cake_library_kmeans_assign_variant."},
    {"kmeans_assign", (PyCFunction)(void (*)(void))kmeans_assign, METH_FASTCALL,
     "kmeans_assign(x, c, csq, out, B, N, D, K, dtype, stream): cake_library_kmeans_assign; "
     "None, or ValueError / RuntimeError with the dispatcher's message."},
    {"kmeans_assign_variant", (PyCFunction)(void (*)(void))kmeans_assign_variant, METH_FASTCALL,
     "kmeans_assign_variant(index, x, c, csq, out, B, N, D, K, dtype, stream): "
     "cake_library_kmeans_assign_variant, raising as kmeans_assign."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cake_native",
                                    "CPython entry points of a libcake_library.so (bind it first).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__cake_native(void) { return PyModule_Create(&module); }
