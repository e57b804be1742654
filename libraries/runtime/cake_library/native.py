"""The generated C++ dispatcher (libcake_library.so, built by `cake library export`).

One C call per kmeans_assign: routing, staging and the launch happen in C++, so the host cost is
the argument checks plus one foreign call. That call goes through the module _cake_native
(dispatch/PyEntry.c: CPython entry points bound to the library's functions) where the export
built it and this CPython loads it, through ctypes otherwise (CAKE_LIBRARY_CTYPES=1 forces
ctypes, for comparisons). `load(folder)` returns None when the library has no built dispatcher; the
pure-Python launcher (kmeans.py) is used then.
"""
import ctypes
import importlib.machinery
import importlib.util
import os

from .route import NoKernel

DTYPE_CODES = {"float16": 0, "bfloat16": 1, "float32": 2}


class Native:
    def __init__(self, path, kernel_dir):
        self.lib = ctypes.CDLL(path)
        self.lib.cake_library_error.restype = ctypes.c_char_p
        self.lib.cake_library_variant.restype = ctypes.c_char_p
        self.lib.cake_library_route.argtypes = [ctypes.c_int64] * 4 + [ctypes.c_int,
                                                                        ctypes.POINTER(ctypes.c_int64)]
        self.lib.cake_library_kmeans_assign.argtypes = (
            [ctypes.c_uint64] * 4 + [ctypes.c_int64] * 4 + [ctypes.c_int, ctypes.c_void_p])
        self.lib.cake_library_kmeans_assign_variant.argtypes = (
            [ctypes.c_int] + [ctypes.c_uint64] * 4 + [ctypes.c_int64] * 4 + [ctypes.c_int, ctypes.c_void_p])
        self.lib.cake_library_variant_index.argtypes = [ctypes.c_char_p]
        self.lib.cake_library_route_candidates.argtypes = [ctypes.c_int64] * 4 + [
            ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
        self.lib.cake_library_set_kernel_dir.argtypes = [ctypes.c_char_p]
        self._index = {}
        self.lib.cake_library_set_kernel_dir(kernel_dir.encode())
        self.entry = _entry_points(os.path.dirname(path), self.lib)
        # assign_coded(x, c, csq, out, B, N, D, K, dtype code, stream): the launch with nothing
        # around it (kmeans.py's hot path); ValueError / RuntimeError with the dispatcher's reason.
        self.assign_coded = self.entry.kmeans_assign if self.entry else self._assign_ctypes
        self._variant_coded = (self.entry.kmeans_assign_variant if self.entry
                               else self._assign_variant_ctypes)

    def computes_csq(self, dtype):
        """Whether a call of `dtype` may pass csq = 0: the library has its |c|^2 kernel
        (families/csq.py) and the dispatcher runs it (a library exported before it: no)."""
        f = getattr(self.lib, "cake_library_computes_csq", None)
        return bool(f and f(DTYPE_CODES[dtype]))

    def set_programmatic_launch(self, on):
        """Launch kernels whose manifests allow it so that they may overlap the stream's previous
        kernel (the default), or the ordinary way."""
        self.lib.cake_library_set_programmatic_launch(1 if on else 0)

    def error(self):
        return (self.lib.cake_library_error() or b"").decode()

    def route(self, B, N, D, K, dtype):
        """(kernel name, launch sizes B N K D KP BKP BND BKD) or ValueError with the dispatcher's reason."""
        _fit_int64(B, N, D, K)
        sizes = (ctypes.c_int64 * 8)()
        i = self.lib.cake_library_route(B, N, D, K, DTYPE_CODES.get(dtype, -1), sizes)
        if i < 0:
            raise ValueError(self.error())
        return self.lib.cake_library_variant(i).decode(), list(sizes)

    def candidates(self, B, N, D, K, dtype, count):
        """route.py's Router.candidates from the dispatcher: [{"kernel": name}, ...] best-ranked
        first, the routed kernel first; NoKernel with the dispatcher's reason."""
        _fit_int64(B, N, D, K)
        out = (ctypes.c_int * max(count, 1))()
        n = self.lib.cake_library_route_candidates(B, N, D, K, DTYPE_CODES.get(dtype, -1), max(count, 1), out)
        if n < 0:
            raise NoKernel(self.error())
        return [{"kernel": self.lib.cake_library_variant(out[i]).decode()} for i in range(n)]

    def assign(self, x, c, csq, out, B, N, D, K, dtype, stream):
        """cake_library_kmeans_assign on device addresses, `dtype` by name; ValueError (no kernel,
        a bad shape) or RuntimeError (the driver) with the dispatcher's reason."""
        self.assign_coded(x, c, csq, out, B, N, D, K, DTYPE_CODES[dtype], stream)

    def assign_variant(self, name, x, c, csq, out, B, N, D, K, dtype, stream):
        """assign with the named variant (ValueError when it does not serve the shape)."""
        self.assign_variant_coded(name, x, c, csq, out, B, N, D, K, DTYPE_CODES[dtype], stream)

    def variant_index(self, name):
        """The dispatcher's index of the named variant; ValueError when the library lacks it."""
        i = self._index.get(name)
        if i is None:
            i = self._index[name] = self.lib.cake_library_variant_index(name.encode())
        if i < 0:
            raise ValueError(f"kernel {name}: not in this library")
        return i

    def assign_variant_coded(self, name, *args):
        """assign_coded with the named variant."""
        self._variant_coded(self.variant_index(name), *args)

    def _assign_ctypes(self, *args):
        # The stream goes as an int (argtypes convert it), not as a c_void_p object.
        self._raise(self.lib.cake_library_kmeans_assign(*args))

    def _assign_variant_ctypes(self, *args):
        self._raise(self.lib.cake_library_kmeans_assign_variant(*args))

    def _raise(self, rc):
        if rc == -1:
            raise ValueError(self.error())
        if rc != 0:
            raise RuntimeError(self.error())


def _fit_int64(B, N, D, K):
    """NoKernel (a ValueError) naming a size ctypes would wrap into int64."""
    for name, v in (("B", B), ("N", N), ("D", D), ("K", K)):
        if isinstance(v, int) and not -2 ** 63 <= v < 2 ** 63:
            raise NoKernel(f"{name} = {v}: more than a 64-bit size holds")


def _entry_points(folder, lib):
    """The module _cake_native built beside libcake_library.so, bound to `lib`'s functions (the
    ctypes handle: one dispatcher state for both paths), or None (not built, another CPython than
    it serves, CAKE_LIBRARY_CTYPES=1)."""
    path = os.path.join(folder, "_cake_native.abi3.so")
    if os.environ.get("CAKE_LIBRARY_CTYPES") == "1" or not os.path.isfile(path):
        return None
    try:
        loader = importlib.machinery.ExtensionFileLoader("_cake_native", path)
        spec = importlib.util.spec_from_file_location("_cake_native", path, loader=loader)
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
    except (ImportError, OSError):
        return None
    address = lambda f: ctypes.cast(f, ctypes.c_void_p).value   # noqa: E731
    module.bind(address(lib.cake_library_error), address(lib.cake_library_kmeans_assign),
                address(lib.cake_library_kmeans_assign_variant))
    return module


def load(folder):
    path = os.path.join(folder, "libcake_library.so")
    if os.environ.get("CAKE_LIBRARY_NATIVE") == "0" or not os.path.isfile(path):
        return None
    return Native(path, os.path.join(folder, "kernels"))
