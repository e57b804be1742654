"""The generated C++ dispatcher (libcake_library.so, built by `cake library export`) through ctypes.

One C call per kmeans_assign: routing, staging and the launch happen in C++, so the host cost is
the argument checks plus one foreign call. `load(folder)` returns None when the library has no
built dispatcher; the pure-Python launcher (kmeans.py) is used then.
"""
import ctypes
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
        # The stream goes as an int (argtypes convert it), not as a c_void_p object.
        rc = self.lib.cake_library_kmeans_assign(x, c, csq, out, B, N, D, K, DTYPE_CODES[dtype], stream)
        if rc == -1:
            raise ValueError(self.error())
        if rc != 0:
            raise RuntimeError(self.error())


    def assign_variant(self, name, x, c, csq, out, B, N, D, K, dtype, stream):
        """assign with the named variant (ValueError when it does not serve the shape)."""
        i = self._index.get(name)
        if i is None:
            i = self._index[name] = self.lib.cake_library_variant_index(name.encode())
        if i < 0:
            raise ValueError(f"kernel {name}: not in this library")
        rc = self.lib.cake_library_kmeans_assign_variant(i, x, c, csq, out, B, N, D, K,
                                                         DTYPE_CODES[dtype], stream)
        if rc == -1:
            raise ValueError(self.error())
        if rc != 0:
            raise RuntimeError(self.error())


def _fit_int64(B, N, D, K):
    """NoKernel (a ValueError) naming a size ctypes would wrap into int64."""
    for name, v in (("B", B), ("N", N), ("D", D), ("K", K)):
        if isinstance(v, int) and not -2 ** 63 <= v < 2 ** 63:
            raise NoKernel(f"{name} = {v}: more than a 64-bit size holds")


def load(folder):
    path = os.path.join(folder, "libcake_library.so")
    if os.environ.get("CAKE_LIBRARY_NATIVE") == "0" or not os.path.isfile(path):
        return None
    return Native(path, os.path.join(folder, "kernels"))
