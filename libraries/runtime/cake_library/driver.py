"""The CUDA driver API through ctypes: load CAKE cubins and launch them per their manifests.

No build step and no LLVM/MLIR: only libcuda. The launch ABI is docs/Manifest.md's: tensors are
8-byte device pointers, TMA maps are pointers to their 128 encoded bytes in device memory, scalars
by value, symbols are int64 after the other parameters. Launches go on the caller's stream.
"""
import ctypes
import ctypes.util
import threading

from . import expr

_DTYPE_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i8": 1, "i32": 4, "i64": 8,
                "f8e4m3": 1, "f8e5m2": 1}
# CUtensorMapDataType values (cuda.h).
_TMA_DTYPE = {"f16": 6, "bf16": 9, "f32": 7, "f64": 8, "i8": 0, "i32": 3, "i64": 5,
              "f8e4m3": 0, "f8e5m2": 0}  # fp8 moves as bytes (UINT8)
_TMA_SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}
_L2_PROMOTION_256B = 3
_MAX_DYNAMIC_SHARED = 8       # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES


class CudaError(RuntimeError):
    pass


class Driver:
    """The few driver entry points a launcher needs, checked on every call."""

    def __init__(self):
        path = ctypes.util.find_library("cuda") or "libcuda.so.1"
        try:
            self.lib = ctypes.CDLL(path)
        except OSError as e:
            raise CudaError(f"cannot load the CUDA driver ({path}): {e}") from None
        self.lib.cuGetErrorString.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
        self.lib.cuLaunchKernel.argtypes = [
            ctypes.c_void_p] + [ctypes.c_uint] * 6 + [ctypes.c_uint, ctypes.c_void_p,
                                                       ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
        self.lib.cuTensorMapEncodeTiled.argtypes = [
            ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p,
            ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint64),
            ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(ctypes.c_uint32),
            ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int]

    def check(self, result, what):
        if result != 0:
            msg = ctypes.c_char_p()
            self.lib.cuGetErrorString(result, ctypes.byref(msg))
            raise CudaError(f"{what}: CUDA error {result} ({(msg.value or b'?').decode()})")

    def load(self, cubin_bytes, entry):
        module, func = ctypes.c_void_p(), ctypes.c_void_p()
        self._image = ctypes.create_string_buffer(cubin_bytes)
        self.check(self.lib.cuModuleLoadData(ctypes.byref(module), self._image), "cuModuleLoadData")
        self.check(self.lib.cuModuleGetFunction(ctypes.byref(func), module, entry.encode()),
                   f"cuModuleGetFunction({entry})")
        return module, func

    def encode_tma(self, dtype, ptr, shape, strides, box, swizzle):
        """128 bytes of a tiled tensor map (shape/strides/box outermost first, strides in elements)."""
        rank = len(shape)
        el = _DTYPE_BYTES[dtype]
        dims = (ctypes.c_uint64 * rank)(*reversed(shape))
        gstrides = (ctypes.c_uint64 * max(rank - 1, 1))(*[s * el for s in reversed(strides[:-1])])
        boxd = (ctypes.c_uint32 * rank)(*reversed(box))
        ones = (ctypes.c_uint32 * rank)(*([1] * rank))
        out = ctypes.create_string_buffer(128)
        self.check(self.lib.cuTensorMapEncodeTiled(
            out, _TMA_DTYPE[dtype], rank, ctypes.c_void_p(ptr), dims, gstrides, boxd, ones, 0,
            _TMA_SWIZZLE[swizzle], _L2_PROMOTION_256B, 0), "cuTensorMapEncodeTiled")
        return out.raw


class Kernel:
    """One manifest kernel loaded from its cubin."""

    def __init__(self, driver, cubin_bytes, manifest_kernel):
        self.driver, self.m = driver, manifest_kernel
        self.entry = manifest_kernel["entry"]
        self.module, self.func = driver.load(cubin_bytes, self.entry)
        self.smem = int(manifest_kernel.get("dynamic_shared_bytes", 0))
        if self.smem > 48 * 1024:
            driver.check(driver.lib.cuFuncSetAttribute(self.func, _MAX_DYNAMIC_SHARED, self.smem),
                         "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)")
        if manifest_kernel.get("cluster", [1, 1, 1]) != [1, 1, 1]:
            raise CudaError(f"{self.entry}: cluster launches are not supported by this launcher")
        self.block = [int(v) for v in manifest_kernel["block"]]
        ctype = {"i32": ctypes.c_int32, "i64": ctypes.c_int64, "f32": ctypes.c_float, "f64": ctypes.c_double}
        self._args = []                 # (how to read the value, its ctypes type) per parameter
        for p in manifest_kernel["params"]:
            kind = p["kind"]
            if kind in ("tensor", "tma"):
                self._args.append((0, p["name"], ctypes.c_uint64))
            elif kind == "symbol":
                self._args.append((1, p["name"], ctypes.c_int64))
            elif kind == "scalar":
                self._args.append((2, p["name"], ctype[p["dtype"]]))
            else:
                raise CudaError(f"{self.entry}: unknown parameter kind {kind!r}")
        self._grids = {}
        self.has_tensor_maps = any(p["kind"] == "tma" for p in manifest_kernel["params"])
        # One holder per parameter and the argument array pointing at them, built once: a launch
        # only stores the values (cuLaunchKernel copies them), ~1 us instead of ~7 for 24
        # parameters. The lock keeps two threads' launches of this kernel from mixing values.
        self._holders = [ctype() for _, _, ctype in self._args]
        self._argv = (ctypes.c_void_p * len(self._holders))(
            *[ctypes.addressof(h) for h in self._holders])
        self._plan = [(h, where, name) for h, (where, name, _) in zip(self._holders, self._args)]
        self._lock = threading.Lock()

    def violated(self, sizes):
        """The first manifest constraint the sizes break, or None."""
        for c in self.m.get("constraints", []):
            if not expr.evaluate(c, sizes):
                return c
        return None

    def grid(self, sizes):
        return [int(expr.evaluate(g, sizes)) for g in self.m["grid"]]

    def shape(self, param, sizes):
        return ([int(expr.evaluate(s, sizes)) for s in param["shape"]],
                [int(expr.evaluate(s, sizes)) for s in param["strides"]])

    def tensor_maps(self, pointers, sizes):
        """{tma param name: its 128 encoded bytes} for the given tensor pointers."""
        params = {p["name"]: p for p in self.m["params"]}
        maps = {}
        for p in self.m["params"]:
            if p["kind"] == "tma":
                t = params[p["tensor"]]
                shape, strides = self.shape(t, sizes)
                maps[p["name"]] = self.driver.encode_tma(
                    p["dtype"], pointers[p["tensor"]], shape, strides, p["box"], p.get("swizzle", 0))
        return maps

    def launch(self, pointers, sizes, stream=0, scalars=None):
        """pointers: {tensor or tma param name: device address}; sizes: {symbol: int}."""
        sources = (pointers, sizes, scalars or {})
        key = tuple(sizes.items())
        g = self._grids.get(key)
        if g is None:
            g = self._grids[key] = self.grid(sizes)
        if min(g) <= 0:
            return            # nothing to do (the kernel's grid is empty for these sizes)
        with self._lock:
            for holder, where, name in self._plan:
                holder.value = sources[where][name]
            result = self.driver.lib.cuLaunchKernel(
                self.func, g[0], g[1], g[2], self.block[0], self.block[1], self.block[2],
                self.smem, ctypes.c_void_p(stream), self._argv, None)
        self.driver.check(result, f"cuLaunchKernel({self.entry})")
