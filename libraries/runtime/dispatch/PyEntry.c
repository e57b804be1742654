/*===- PyEntry.c - CPython entry points of a CAKE kernel library's dispatcher -===*
 *
 * The module `_cake_native`: kmeans_assign and kmeans_assign_variant as METH_FASTCALL functions
 * that call libcake_library.so's C ABI. It exists for the host time per call: ctypes converts ten
 * arguments through argtypes objects. On the CPU machine with the fake driver
 * (bench/library/dispatch_host_cpu.py, paired rounds) a call cost 1.6-1.9 us through ctypes and
 * 0.17-0.38 us through these entry points, of which the C++ dispatcher is 0.12-0.24 us
 * (bench/library/dispatch_loop.c). `assign_tensors` (below) goes one step further: the usual
 * call of kmeans.py from the torch tensors themselves, its checks read in C (on an H100 host the
 * whole Python API call then took 8.4 / 5.7 us against 13.7 / 10.6 through ctypes and the
 * Python checks: bench/results/2026-12-06-library-kmeans-23, call 1).
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

/*===- The whole call from torch tensors ---------------------------------===*
 *
 * assign_tensors(x, c, c_sq, out, routes) reads the tensors' attributes itself: on the CPU it
 * replaces kmeans.py's checks (two frames and ~20 attribute reads in bytecode, 3-4.5 us of the
 * 17 us per call measured on an H100 host in kmeans-22). It serves only the usual call: every
 * argument well formed, `out` given with x's shape less D, c_sq given or computed by the
 * library, x on the current device, and the shape's kernel already decided by an earlier call
 * (`routes`: {(B, N, D, K, dtype name, device): -1 to route, or a variant index}). Anything else
 * returns None and kmeans.py's own path runs: it raises the error that names the argument, or
 * tunes, allocates or switches devices, and records the shape in `routes`. So no message is
 * written twice and nothing here can accept what the Python checks refuse.
 *
 * `configure` gives it torch's objects: the tensor type, the three served dtypes (codes 0-2:
 * float16, bfloat16, float32) with their names, int32, torch._C._cuda_getDevice,
 * torch._C._cuda_getCurrentRawStream, and the mask of dtype codes whose |c|^2 the library
 * computes (a call without c_sq).
 *
 *===----------------------------------------------------------------------===*/

static struct {
  PyObject *tensorType, *dtypes[3], *names[3], *int32, *currentDevice, *rawStream;
  long csqMask;
  PyObject *isCuda, *shape, *dtype, *isContiguous, *getDevice, *dataPtr; /* interned names */
} torchApi;

static void keep(PyObject **slot, PyObject *value) {
  PyObject *old = *slot;
  Py_INCREF(value);
  *slot = value;
  Py_XDECREF(old);
}

static PyObject *configure(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 7 || !PyTuple_Check(args[1]) || PyTuple_Size(args[1]) != 3 ||
      !PyTuple_Check(args[2]) || PyTuple_Size(args[2]) != 3 || !PyType_Check(args[0])) {
    PyErr_SetString(PyExc_TypeError, "configure(Tensor, (float16, bfloat16, float32), their names, "
                                     "int32, current_device, raw_stream, csq_mask)");
    return NULL;
  }
  long mask = PyLong_AsLong(args[6]);
  if (mask == -1 && PyErr_Occurred())
    return NULL;
  if (!torchApi.isCuda) {
    torchApi.isCuda = PyUnicode_InternFromString("is_cuda");
    torchApi.shape = PyUnicode_InternFromString("shape");
    torchApi.dtype = PyUnicode_InternFromString("dtype");
    torchApi.isContiguous = PyUnicode_InternFromString("is_contiguous");
    torchApi.getDevice = PyUnicode_InternFromString("get_device");
    torchApi.dataPtr = PyUnicode_InternFromString("data_ptr");
    if (!torchApi.isCuda || !torchApi.shape || !torchApi.dtype || !torchApi.isContiguous ||
        !torchApi.getDevice || !torchApi.dataPtr)
      return NULL;
  }
  keep(&torchApi.tensorType, args[0]);
  for (int i = 0; i < 3; ++i) {
    keep(&torchApi.dtypes[i], PyTuple_GetItem(args[1], i));
    keep(&torchApi.names[i], PyTuple_GetItem(args[2], i));
  }
  keep(&torchApi.int32, args[3]);
  keep(&torchApi.currentDevice, args[4]);
  keep(&torchApi.rawStream, args[5]);
  torchApi.csqMask = mask;
  Py_RETURN_NONE;
}

/* A tensor as the fast path reads it. */
typedef struct {
  PyObject *dtype; /* borrowed from torchApi (compared by identity) */
  int rank;
  int64_t size[3];
  long device;
  uint64_t ptr;
} TensorView;

/* The integer a call returned (the reference consumed), or -1 with an exception set. */
static long long takeInt(PyObject *r) {
  if (!r)
    return -1;
  long long v = PyLong_AsLongLong(r);
  Py_DECREF(r);
  return v;
}

/* 1 when `t` is a contiguous CUDA torch tensor of rank 1-3 with positive sizes, filled in `v`;
   0 otherwise (any exception cleared: the Python path will name the problem). */
static int view(PyObject *t, TensorView *v) {
  int ok = 0;
  PyObject *shape = NULL, *dtype = NULL, *flag = NULL;
  if (!PyObject_TypeCheck(t, (PyTypeObject *)torchApi.tensorType))
    return 0;
  flag = PyObject_GetAttr(t, torchApi.isCuda);
  if (flag != Py_True)
    goto done;
  Py_DECREF(flag);
  flag = PyObject_CallMethodObjArgs(t, torchApi.isContiguous, NULL);
  if (flag != Py_True)
    goto done;
  shape = PyObject_GetAttr(t, torchApi.shape);
  if (!shape || !PyTuple_Check(shape))
    goto done;
  Py_ssize_t rank = PyTuple_Size(shape);
  if (rank < 1 || rank > 3)
    goto done;
  v->rank = (int)rank;
  for (Py_ssize_t i = 0; i < rank; ++i) {
    v->size[i] = PyLong_AsLongLong(PyTuple_GetItem(shape, i));
    if (v->size[i] < 1)
      goto done;
  }
  dtype = PyObject_GetAttr(t, torchApi.dtype);
  if (!dtype)
    goto done;
  v->dtype = dtype; /* compared by identity only; torch's dtypes are singletons */
  v->device = (long)takeInt(PyObject_CallMethodObjArgs(t, torchApi.getDevice, NULL));
  if (v->device < 0)
    goto done;
  long long ptr = takeInt(PyObject_CallMethodObjArgs(t, torchApi.dataPtr, NULL));
  if (ptr == -1 && PyErr_Occurred())
    goto done;
  v->ptr = (uint64_t)ptr;
  ok = 1;
done:
  Py_XDECREF(flag);
  Py_XDECREF(shape);
  Py_XDECREF(dtype);
  if (!ok)
    PyErr_Clear();
  return ok;
}

/* 1 when `v` has the given rank and sizes, dtype and device. */
static int matches(const TensorView *v, PyObject *dtype, long device, int rank, const int64_t *size) {
  if (v->dtype != dtype || v->device != device || v->rank != rank)
    return 0;
  for (int i = 0; i < rank; ++i)
    if (v->size[i] != size[i])
      return 0;
  return 1;
}

static PyObject *assign_tensors(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 5) {
    PyErr_SetString(PyExc_TypeError, "assign_tensors(x, c, c_sq, out, routes): 5 arguments");
    return NULL;
  }
  if (!bound())
    return NULL;
  PyObject *routes = args[4];
  if (!torchApi.tensorType || !PyDict_Check(routes))
    Py_RETURN_NONE;
  TensorView x, c, csq, out;
  if (!view(args[0], &x) || !view(args[1], &c) || !view(args[3], &out))
    Py_RETURN_NONE;
  int code = -1;
  for (int i = 0; i < 3; ++i)
    if (x.dtype == torchApi.dtypes[i])
      code = i;
  if (code < 0 || x.rank < 2)
    Py_RETURN_NONE;
  /* [B, N, D] or [N, D] (B = 1); c of the same form, dtype and device. */
  int batched = x.rank == 3;
  int64_t B = batched ? x.size[0] : 1, N = x.size[x.rank - 2], D = x.size[x.rank - 1];
  if (c.rank != x.rank)
    Py_RETURN_NONE;
  int64_t K = c.size[c.rank - 2];
  int64_t cSize[3] = {B, K, D};
  if (!matches(&c, x.dtype, x.device, x.rank, batched ? cSize : cSize + 1))
    Py_RETURN_NONE;
  int64_t outSize[2] = {B, N}, csqSize[2] = {B, K};
  if (!matches(&out, torchApi.int32, x.device, x.rank - 1, batched ? outSize : outSize + 1))
    Py_RETURN_NONE;
  uint64_t csqPtr = 0;
  if (args[2] == Py_None) {
    if (!(torchApi.csqMask >> code & 1))
      Py_RETURN_NONE;
  } else {
    if (!view(args[2], &csq) ||
        !matches(&csq, torchApi.dtypes[2], x.device, x.rank - 1, batched ? csqSize : csqSize + 1))
      Py_RETURN_NONE;
    csqPtr = csq.ptr;
  }
  long long current = takeInt(PyObject_CallFunctionObjArgs(torchApi.currentDevice, NULL));
  if (current != x.device) {
    PyErr_Clear();
    Py_RETURN_NONE;
  }
  /* The shape's kernel, as decided by an earlier call: -1 routes, i >= 0 is variant i. */
  PyObject *key = PyTuple_New(6);
  if (!key)
    return NULL;
  int64_t parts[4] = {B, N, D, K};
  for (int i = 0; i < 6; ++i) {
    PyObject *item = i < 4 ? PyLong_FromLongLong(parts[i]) : i == 5 ? PyLong_FromLong(x.device)
                                                                    : torchApi.names[code];
    if (i == 4)
      Py_INCREF(item);
    if (!item || PyTuple_SetItem(key, i, item) < 0) {
      Py_DECREF(key);
      return NULL;
    }
  }
  PyObject *decided = PyDict_GetItemWithError(routes, key);
  Py_DECREF(key);
  if (!decided) {
    if (PyErr_Occurred())
      return NULL;
    Py_RETURN_NONE;
  }
  long variant = PyLong_AsLong(decided);
  if (variant == -1 && PyErr_Occurred())
    return NULL;
  PyObject *device = PyLong_FromLong(x.device);
  if (!device)
    return NULL;
  long long handle = takeInt(PyObject_CallFunctionObjArgs(torchApi.rawStream, device, NULL));
  Py_DECREF(device);
  if (handle == -1 && PyErr_Occurred())
    return NULL;
  void *stream = (void *)(uintptr_t)handle;
  int rc = variant < 0 ? assignFn(x.ptr, c.ptr, csqPtr, out.ptr, B, N, D, K, code, stream)
                       : assignVariantFn((int)variant, x.ptr, c.ptr, csqPtr, out.ptr, B, N, D, K,
                                         code, stream);
  if (rc != 0)
    return result(rc);
  Py_INCREF(args[3]);
  return args[3];
}

static PyMethodDef methods[] = {
    {"configure", (PyCFunction)(void (*)(void))configure, METH_FASTCALL,
     "configure(Tensor, (float16, bfloat16, float32), their names, int32, current_device, "
     "raw_stream, csq_mask): torch's objects for assign_tensors."},
    {"assign_tensors", (PyCFunction)(void (*)(void))assign_tensors, METH_FASTCALL,
     "assign_tensors(x, c, c_sq, out, routes): the usual call launched from the tensors (returns "
     "out), or None where kmeans.py's own path must run (see PyEntry.c)."},

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
