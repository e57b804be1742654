"""kmeans_assign's argument checks (libraries/runtime/cake_library/kmeans.py) without a GPU: a
fake torch module with the tensor attributes the checks read. Every bad argument is an error
naming it, raised before anything is allocated or launched."""
import json
import os
import sys
import tempfile
import types
import unittest

from tests.util import ROOT

sys.path.insert(0, os.path.join(ROOT, "libraries", "runtime"))

from cake_library import kmeans as km  # noqa: E402


class FakeTensor:
    def __init__(self, shape, dtype, device=0, contiguous=True):
        self.shape, self.dtype, self._dev, self._contiguous = tuple(shape), dtype, device, contiguous

    is_cuda = property(lambda self: self._dev >= 0)
    device = property(lambda self: f"cuda:{self._dev}" if self._dev >= 0 else "cpu")

    def get_device(self):
        return self._dev

    def dim(self):
        return len(self.shape)

    def is_contiguous(self):
        return self._contiguous

    def data_ptr(self):
        return 1 << 20

    def view(self, *shape):
        shape = shape[0] if len(shape) == 1 and isinstance(shape[0], tuple) else shape
        return FakeTensor(shape, self.dtype, self._dev, self._contiguous)


def fake_torch():
    t = types.ModuleType("torch")
    t.Tensor = FakeTensor
    for name in ("float16", "bfloat16", "float32", "float64", "int32", "int64"):
        setattr(t, name, "torch." + name)

    def launched(*a, **k):
        raise AssertionError("the checks let a bad call through to allocation or launch")
    t.empty = t.full = t.sum = launched
    t.cuda = types.SimpleNamespace(current_device=lambda: 0, is_current_stream_capturing=lambda: False,
                                   current_stream=lambda dev: types.SimpleNamespace(cuda_stream=0))
    return t


class ArgumentCheckTest(unittest.TestCase):
    def setUp(self):
        self.torch = fake_torch()
        self.saved = sys.modules.get("torch"), km._TORCH
        sys.modules["torch"], km._TORCH = self.torch, None
        self.addCleanup(self.restore)
        km._torch()
        folder = tempfile.mkdtemp()
        with open(os.path.join(folder, "library.json"), "w") as f:
            json.dump({"op": "kmeans_assign", "table": {"points": [], "neighbours": 2},
                       "variants": [{"name": "simt", "family": "simt", "dtype": "float16", "max_d": None,
                                     "d_align": 1, "staging": "none", "config": "simt_w4",
                                     "constraints": ["K >= 1"]}]}, f)
        self.lib = km.KMeansLibrary(folder, autotune=1)

    def restore(self):
        torch, km._TORCH = self.saved
        if torch is None:
            sys.modules.pop("torch", None)
        else:
            sys.modules["torch"] = torch

    def T(self, shape, dtype="float16", **kw):
        return FakeTensor(shape, "torch." + dtype, **kw)

    def test_good_shapes_give_sizes_device_and_dtype(self):
        self.assertEqual(km._check(self.torch, self.T((3, 100, 7)), self.T((3, 5, 7))),
                         (3, 100, 7, 5, 0, "float16"))
        self.assertEqual(km._check(self.torch, self.T((100, 7), "bfloat16", device=1),
                                   self.T((5, 7), "bfloat16", device=1)),
                         (1, 100, 7, 5, 1, "bfloat16"))

    def bad(self, error, words, x, c, c_sq=None, out=None):
        with self.assertRaises(error) as e:
            self.lib.assign(x, c, c_sq=c_sq, out=out)
        for w in words:
            self.assertIn(w, str(e.exception))

    def test_every_bad_argument_is_named_before_any_launch(self):
        x, c = self.T((2, 10, 4)), self.T((2, 3, 4))
        self.bad(TypeError, ["x:", "list"], [1.0], c)
        self.bad(ValueError, ["c:", "cpu", "CUDA"], x, self.T((2, 3, 4), device=-1))
        self.bad(ValueError, ["x:", "shape"], self.T((10,)), c)
        self.bad(ValueError, ["c:", "not contiguous"], x, self.T((2, 3, 4), contiguous=False))
        self.bad(TypeError, ["x:", "float64"], self.T((2, 10, 4), "float64"), self.T((2, 3, 4), "float64"))
        self.bad(TypeError, ["c:", "differs"], x, self.T((2, 3, 4), "bfloat16"))
        self.bad(ValueError, ["c:", "cuda:1"], x, self.T((2, 3, 4), device=1))
        self.bad(ValueError, ["c:", "2-D"], x, self.T((3, 4)))
        self.bad(ValueError, ["c:", "batch 1"], x, self.T((1, 3, 4)))
        self.bad(ValueError, ["c:", "D = 5"], x, self.T((2, 3, 5)))
        for xs, cs, name in (((2, 0, 4), (2, 3, 4), "x: N"), ((2, 10, 0), (2, 3, 0), "x: D"),
                             ((2, 10, 4), (2, 0, 4), "c: K"), ((0, 10, 4), (0, 3, 4), "x: B")):
            self.bad(ValueError, [name, "= 0"], self.T(xs), self.T(cs))
        self.bad(TypeError, ["c_sq:", "float16"], x, c, c_sq=self.T((2, 3)))
        self.bad(ValueError, ["out:", "[2, 10]"], x, c, out=self.T((2, 11), "int32"))
        self.bad(ValueError, ["out:", "cuda:1"], x, c, out=self.T((2, 10), "int32", device=1))
        self.bad(ValueError, ["out:", "not contiguous"], x, c, out=self.T((2, 10), "int32", contiguous=False))

    def test_the_2d_forms_of_c_sq_and_out_only_for_one_batch(self):
        # [K] and [N] would be read or written as [B, K] and [B, N]: out of bounds for B > 1.
        x, c = self.T((2, 10, 4)), self.T((2, 3, 4))
        self.bad(ValueError, ["c_sq:", "[2, 3]"], x, c, c_sq=self.T((3,), "float32"))
        self.bad(ValueError, ["out:", "[2, 10]"], x, c, out=self.T((10,), "int32"))
        km._need(self.torch, self.T((10,), "int32"), "out", (1, 10), self.torch.int32, 0)
        km._need(self.torch, self.T((1, 10), "int32"), "out", (1, 10), self.torch.int32, 0)

    def test_the_result_has_the_shape_of_x_without_d(self):
        # [B, N] for x [B, N, D], [N] for x [N, D], whichever form `out` came in; the launch
        # (a stand-in dispatcher here) gets the shape's sizes.
        launched = []
        self.lib.native = types.SimpleNamespace(assign_coded=lambda *a: launched.append(a[4:9]))
        for xs, cs, outs, want in (((2, 10, 4), (2, 3, 4), (2, 10), (2, 10)), ((1, 10, 4), (1, 3, 4), (10,), (1, 10)),
                                   ((10, 4), (3, 4), (1, 10), (10,)), ((10, 4), (3, 4), (10,), (10,))):
            out = self.T(outs, "int32")
            got = self.lib.assign(self.T(xs), self.T(cs), c_sq=self.T(cs[:-1], "float32"), out=out)
            self.assertEqual(got.shape, want)
            if outs == want:
                self.assertIs(got, out)
        self.assertEqual(launched[0], (2, 10, 4, 3, 0))     # dtype code 0: float16

    def test_a_call_without_c_sq_leaves_it_to_the_dispatcher(self):
        # A library whose dispatcher computes |c|^2 for the dtype gets csq = 0 (nothing computed
        # in torch: the fake's sum and allocations refuse); one without gets torch's |c|^2.
        launched = []
        self.lib.native = types.SimpleNamespace(assign_coded=lambda *a: launched.append(a))
        x, c, out = self.T((2, 10, 4)), self.T((2, 3, 4)), self.T((2, 10), "int32")
        self.lib._native_csq = {"float16"}
        self.lib.assign(x, c, out=out)
        self.assertEqual(launched[0][2:9], (0, out.data_ptr(), 2, 10, 4, 3, 0))
        self.lib._native_csq = {"bfloat16"}
        with self.assertRaisesRegex(AssertionError, "allocation or launch"):
            self.lib.assign(x, c, out=out)
        self.assertEqual(len(launched), 1)

    def test_update_names_a_bad_idx(self):
        x = self.T((2, 10, 4))
        for idx, words in ((self.T((10,), "int32"), ["idx:", "[2, 10]"]),
                           (self.T((2, 10), "int64"), ["idx:", "int64"])):
            with self.assertRaises((TypeError, ValueError)) as e:
                self.lib.update(x, idx, 3)
            for w in words:
                self.assertIn(w, str(e.exception))


if __name__ == "__main__":
    unittest.main()
