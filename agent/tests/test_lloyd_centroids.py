"""The end of a Lloyd step in one launch (libraries/kmeans/families/centroids.py) and the Python
API's path through it (KMeansLibrary.lloyd_step with a `centroids` kernel): the kernel verifies and
compiles for every dtype, and the host keeps sums and counts as a workspace that the update kernel
fills and the centroids kernel reads and leaves zeroed (no GPU: a fake torch records the launches)."""
import itertools
import json
import os
import subprocess
import sys
import tempfile
import unittest

from tests.util import BIN, ROOT, needs_tools

KMEANS = os.path.join(ROOT, "libraries", "kmeans")
RUNTIME = os.path.join(ROOT, "libraries", "runtime")
sys.path.insert(0, KMEANS)
sys.path.insert(0, RUNTIME)
import build as kbuild  # noqa: E402
import family  # noqa: E402
from cake_library.route import AUXILIARY_LISTS  # noqa: E402


class CentroidsKernelTest(unittest.TestCase):

    def test_a_kernel_per_dtype_no_twin_and_listed_as_auxiliary(self):
        p = {"centroids": True, "dtype": "float16"}
        self.assertEqual(kbuild.family_of(p), "centroids")
        self.assertEqual(kbuild.variant_name(p), "km_f16_centroids")
        self.assertEqual(kbuild.variant_name(dict(p, row_block=True)), "km_f16_centroids_rb")
        self.assertEqual(family.FAMILIES["centroids"].plan(["float16"]),
                         [p, dict(p, row_block=True)])
        self.assertEqual(kbuild.with_twins([p]), [p])          # sizes are i64 symbols: no _i32 twin
        self.assertIn("centroids_variants", AUXILIARY_LISTS)   # exported and loaded with the rest

    def test_counts_are_read_before_the_barrier_and_zeroed_after_it(self):
        for rows in ({}, {"row_block": True}):
            ir = kbuild.generate({"centroids": True, "dtype": "bfloat16", **rows}, BIN)
            read, barrier = ir.index("cake.load %counts"), ir.index("cake.barrier")
            self.assertLess(read, barrier)
            self.assertGreater(ir.index("cake.store %zi, %counts"), barrier)
            self.assertLess(ir.index("cake.store %zf, %sums"), barrier)   # each thread its own elements
            self.assertIn("arith.select %filled, %mean, %old", ir)        # an empty cluster keeps c

    @needs_tools
    def test_verifies_and_compiles_for_every_dtype(self):
        with tempfile.TemporaryDirectory() as tmp:
            for dtype, rows in itertools.product(("float16", "bfloat16", "float32"), (False, True)):
                p = {"centroids": True, "dtype": dtype, **({"row_block": True} if rows else {})}
                name = kbuild.variant_name(p)
                src = os.path.join(tmp, name + ".mlir")
                with open(src, "w") as f:
                    f.write(kbuild.kernel_ir(p, BIN))
                rc, err = kbuild.compile_ir(BIN, src, tmp, name)     # cake-verify, then ptxas
                self.assertEqual(rc, 0, err)
                self.assertGreater(os.path.getsize(os.path.join(tmp, name + ".cubin")), 0)
                with open(os.path.join(tmp, name + ".json")) as f:
                    m = json.load(f)
                m = m["kernels"][0] if "kernels" in m else m
                self.assertEqual([q["name"] for q in m["params"]],
                                 ["sums", "counts", "c", "new", "B", "K", "D", "CB"])
                self.assertEqual(m["grid"][:2], ["K" if rows else "ceildiv(K, 8)", "B"])
                self.assertEqual(m["block"][0], 256)


FAKE_TORCH = r"""
import contextlib, itertools, json, sys, types
torch = types.ModuleType("torch")
for name in ("float16", "bfloat16", "float32", "int32"):
    setattr(torch, name, type(name, (), {"__repr__": lambda self, n=name: "torch." + n})())
ptrs, events = itertools.count(0x1000, 0x1000), []
class Tensor:
    def __init__(self, shape, dtype):
        self.shape, self.dtype, self.ptr = tuple(shape), dtype, next(ptrs)
    is_cuda = True
    device = "cuda:0"
    def get_device(self): return 0
    def is_contiguous(self): return True
    def data_ptr(self): return self.ptr
    def dim(self): return len(self.shape)
    def squeeze(self, i): return self
    def zero_(self): events.append(["zero", self.ptr]); return self
def full(shape, fill, dtype=None, device=None):
    t = Tensor(shape, dtype); events.append(["alloc", t.ptr, fill]); return t
def empty(*shape, dtype=None, device=None):
    t = Tensor(shape, dtype); events.append(["empty", t.ptr]); return t
torch.Tensor, torch.full, torch.empty = Tensor, full, empty
@contextlib.contextmanager
def device(index):
    yield
torch.cuda = types.SimpleNamespace(is_current_stream_capturing=lambda: False, device=device)
torch._C = types.SimpleNamespace(_cuda_getDevice=lambda: 0, _cuda_getCurrentRawStream=lambda dev: 7)
sys.modules["torch"] = torch
from cake_library import kmeans as km
lib = km.KMeansLibrary(sys.argv[1], autotune=1)
class Recorder:
    def __init__(self, name): self.name = name
    def launch(self, pointers, sizes, stream):
        events.append(["launch", self.name, pointers, sizes, stream])
        if self.name.endswith("centroids") and FAIL[0]:
            raise RuntimeError("launch failed")
FAIL = [False]
lib.kernel = Recorder
B, N, D, K = 3, 50, 5, 4
lib.assign = lambda x, c: Tensor((B, N), torch.int32)
x, c3, c2 = Tensor((B, N, D), torch.bfloat16), Tensor((B, K, D), torch.bfloat16), Tensor((K, D), torch.bfloat16)
out = {}
def step(what, c, **kw):
    del events[:]
    try:
        new, _ = lib.lloyd_step(x, c, **kw)
        out[what] = {"events": list(events), "new": [new.shape, new.ptr], "c": c.ptr}
    except Exception as e:            # the torch end is beyond this fake torch: it fails here
        out[what] = {"events": list(events), "error": str(e)}
step("first", c3, centroids_kernel=True)
step("again", c3, centroids_kernel=True)
step("broadcast c", c2)                       # the default (CAKE_LLOYD_CENTROIDS as run_steps sets it)
step("row block", c3, centroids_kernel="km_bf16_centroids_rb")
FAIL[0] = True
step("failed", c3, centroids_kernel=True)
print(json.dumps(out))
"""


class LloydEndPathTest(unittest.TestCase):
    """KMeansLibrary.lloyd_step through the `centroids` kernel, launches recorded."""

    def run_steps(self, env_value=None):
        """The fake's steps, with CAKE_LLOYD_CENTROIDS=env_value in the environment (None: unset)."""
        update = {"name": "km_bf16_update_w8", "dtype": "bfloat16", "ppb": 8, "manifest": {"params": []}}
        cent = {"name": "km_bf16_centroids", "dtype": "bfloat16", "manifest": {"params": []}}
        # Listed after the default, as build.py sorts them: it must not become the default.
        rows = {"name": "km_bf16_centroids_rb", "dtype": "bfloat16", "row_block": True, "manifest": {"params": []}}
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "kernels"))
            with open(os.path.join(tmp, "library.json"), "w") as f:
                simt = {"name": "km_bf16_simt_w4", "family": "simt", "dtype": "bfloat16", "max_d": None,
                        "d_align": 1, "staging": "none", "config": "simt_w4", "constraints": []}
                json.dump({"op": "kmeans_assign", "variants": [simt], "table": {},
                           "update_variants": [update], "centroids_variants": [cent, rows]}, f)
            env = {k: v for k, v in os.environ.items() if k != "CAKE_LLOYD_CENTROIDS"}
            env.update(PYTHONPATH=RUNTIME, **({} if env_value is None else {"CAKE_LLOYD_CENTROIDS": env_value}))
            r = subprocess.run([sys.executable, "-c", FAKE_TORCH, tmp], capture_output=True, text=True,
                               env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        return json.loads(r.stdout)

    def test_the_workspace_is_filled_by_the_update_and_read_by_the_centroids_kernel(self):
        out = self.run_steps()
        first = out["first"]["events"]
        allocs = [e for e in first if e[0] == "alloc"]
        self.assertEqual([e[2] for e in allocs], [0, 0])             # sums and counts, zeroed once
        launches = [e for e in first if e[0] == "launch"]
        self.assertEqual([e[1] for e in launches], ["km_bf16_update_w8", "km_bf16_centroids"])
        update, cent = launches[0][2], launches[1][2]
        self.assertEqual((cent["sums"], cent["counts"]), (update["sums"], update["counts"]))
        self.assertEqual({allocs[0][1], allocs[1][1]}, {update["sums"], update["counts"]})
        self.assertEqual(cent["c"], out["first"]["c"])
        self.assertEqual(cent["new"], out["first"]["new"][1])
        self.assertEqual(out["first"]["new"][0], [3, 4, 5])
        self.assertEqual(launches[1][3], {"B": 3, "K": 4, "D": 5, "CB": 3})
        self.assertEqual(launches[1][4], 7)                           # the current stream
        # The next step of the same shape: the same workspace, nothing allocated or zeroed by
        # the host (the centroids kernel left it zeroed), a new output.
        again = out["again"]["events"]
        self.assertFalse([e for e in again if e[0] in ("alloc", "zero")])
        self.assertEqual([e[2]["sums"] for e in again if e[0] == "launch"], [update["sums"]] * 2)
        self.assertNotEqual(out["again"]["new"][1], out["first"]["new"][1])

    def test_one_set_of_centroids_for_every_batch(self):
        launches = [e for e in self.run_steps()["broadcast c"]["events"] if e[0] == "launch"]
        self.assertEqual(launches[-1][1], "km_bf16_centroids")       # the default: no option given
        self.assertEqual(launches[-1][3], {"B": 3, "K": 4, "D": 5, "CB": 1})

    def test_the_row_per_block_layout_runs_when_named(self):
        out = self.run_steps()
        launches = [e for e in out["row block"]["events"] if e[0] == "launch"]
        self.assertEqual([e[1] for e in launches], ["km_bf16_update_w8", "km_bf16_centroids_rb"])
        self.assertEqual((launches[1][2]["sums"], launches[1][2]["counts"]),
                         (launches[0][2]["sums"], launches[0][2]["counts"]))
        self.assertEqual(launches[1][3], {"B": 3, "K": 4, "D": 5, "CB": 3})

    def test_the_environment_can_choose_the_torch_end(self):
        for value, kernel_end in (("1", True), ("0", False)):
            # "0": update() and the torch end (which this fake torch cannot run): no centroids launch
            events = self.run_steps(value)["broadcast c"]["events"]
            names = [e[1] for e in events if e[0] == "launch"]
            self.assertEqual("km_bf16_centroids" in names, kernel_end, (value, names))

    def test_a_failed_launch_leaves_the_workspace_zeroed(self):
        failed = self.run_steps()["failed"]
        self.assertEqual(failed["error"], "launch failed")
        update = next(e for e in failed["events"] if e[0] == "launch")[2]
        self.assertEqual(sorted(e[1] for e in failed["events"] if e[0] == "zero"),
                         sorted([update["sums"], update["counts"]]))


UPDATE_CHOICE = FAKE_TORCH.split("B, N, D, K = 3, 50, 5, 4")[0] + r"""
chosen = []
for B, N, D, K in json.loads(sys.argv[2]):
    del events[:]
    x, idx = Tensor((B, N, D), torch.bfloat16), Tensor((B, N), torch.int32)
    launch, _, _ = lib._update_launch(x, idx, K)
    launch(Tensor((B, K, D), torch.float32), Tensor((B, K), torch.int32))
    chosen.append(events[-1][1])
print(json.dumps(chosen))
"""


class UpdateFallbackTest(unittest.TestCase):
    """The update kernel a library runs: private_chunk's chunk where the library has it, else the
    chunk of 256 (a library built before 32 and 64), else the per-point atomics."""

    SHAPES = [(7, 469, 374, 1),        # private_chunk: 32
              (4, 8445, 144, 1),       # 64
              (7, 156830, 216, 2),     # 256
              (3, 50, 5, 4)]           # not privatized (50 points for 4 centroids)

    def chosen(self, chunks):
        updates = [{"name": "km_bf16_update_w8", "dtype": "bfloat16", "ppb": 8, "manifest": {"params": []}}]
        updates += [{"name": f"km_bf16_update_c{c}", "dtype": "bfloat16", "ppb": 8, "chunk": c,
                     "manifest": {"params": []}} for c in chunks]
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "kernels"))
            with open(os.path.join(tmp, "library.json"), "w") as f:
                simt = {"name": "km_bf16_simt_w4", "family": "simt", "dtype": "bfloat16", "max_d": None,
                        "d_align": 1, "staging": "none", "config": "simt_w4", "constraints": []}
                json.dump({"op": "kmeans_assign", "variants": [simt], "table": {}, "update_variants": updates}, f)
            r = subprocess.run([sys.executable, "-c", UPDATE_CHOICE, tmp, json.dumps(self.SHAPES)],
                               capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=RUNTIME))
        self.assertEqual(r.returncode, 0, r.stderr)
        return [name.rsplit("_", 1)[-1] for name in json.loads(r.stdout)]

    def test_every_chunk(self):
        self.assertEqual(self.chosen((32, 64, 256, 2048)), ["c32", "c64", "c256", "w8"])

    def test_a_library_without_the_small_chunks_takes_256(self):
        self.assertEqual(self.chosen((256, 2048)), ["c256", "c256", "c256", "w8"])

    def test_a_library_without_privatized_updates_takes_the_atomics(self):
        self.assertEqual(self.chosen(()), ["w8"] * 4)


if __name__ == "__main__":
    unittest.main()
