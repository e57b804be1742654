"""The KDA library (libraries/kda): its kernels verify and compile, their manifests match what the
launcher passes, the rule names built variants, and bad arguments are refused before any launch
(the last ones need torch with a CUDA device: they run on the GPU machine and skip elsewhere)."""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

from tests.util import BIN, ROOT, needs_tools

KDA = os.path.join(ROOT, "libraries", "kda")
RUNTIME = os.path.join(ROOT, "libraries", "runtime")
sys.path.append(KDA)           # after everything else: libraries/kmeans has a build.py and a grid.py too
sys.path.insert(0, RUNTIME)

import recurrent  # noqa: E402
import wy  # noqa: E402


def _load(name, path):
    """A module of libraries/kda under its own name (the KMeans library has a grid.py too, and a
    module is imported once per process)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


kda_grid = _load("kda_grid", os.path.join(KDA, "grid.py"))
kda_build = _load("kda_build", os.path.join(KDA, "build.py"))
from cake_library.kda import KDALibrary  # noqa: E402

FAMILIES = tuple(kda_build.FAMILIES.values())


def all_variants():
    """(family module, params) of every variant build.py builds."""
    return [(m, p) for m in FAMILIES for p in m.variants()]


def kernel_names(m, p):
    return [k for k, _ in kda_build.kernels(m.__name__, p)]


def fake_library(folder):
    """library.json as build.py writes it, without manifests or cubins."""
    os.makedirs(folder, exist_ok=True)
    variants = [dict({"name": m.name(p), "family": m.__name__,
                      "kernels": [{"name": k, "manifest": {}} for k in kernel_names(m, p)]},
                     **({"max_neg_bound": m.MAX_NEG_BOUND} if hasattr(m, "MAX_NEG_BOUND") else {}))
                for m, p in all_variants()]
    with open(os.path.join(folder, "library.json"), "w") as f:
        json.dump({"op": "kda_fwd", "variants": variants, **load_rule()}, f)

# What KDALibrary.fwd passes: tensor pointers, scalars and sizes, by manifest name.
LAUNCH_TENSORS = {"q", "k", "v", "g", "beta", "A_log", "dt_bias", "cu_seqlens", "out",
                  "initial_state", "final_state"}
LAUNCH_SCALARS = {"scale": "f32", "lower_bound": "f32", "use_initial_state": "i32",
                  "store_final_state": "i32"}
LAUNCH_SIZES = {"T", "H", "N", "S"}
CHUNK_SIZES = {"C", "P"}       # a multi-pass variant's chunk slots (the workspace), a launch's (grid)
CHUNK_SCALARS = {"slot_lo": "i64", "slot_hi": "i64"}     # a launch's range of slots
CARRIED = {"ws_hs"}            # the state one launch of a segmented call leaves to the next


def load_rule():
    with open(os.path.join(KDA, "rule.json")) as f:
        return json.load(f)


@needs_tools
class KernelTest(unittest.TestCase):
    def test_variants_verify_and_their_manifests_fit_the_launcher(self):
        with tempfile.TemporaryDirectory() as tmp:
            manifests, ptx = {}, {}
            for m, p in all_variants():
                for name, ir in kda_build.kernels(m.__name__, p):
                    if name in manifests:
                        continue
                    with self.subTest(kernel=name):
                        src = os.path.join(tmp, name + ".mlir")
                        with open(src, "w") as f:
                            f.write(ir)
                        r = subprocess.run([os.path.join(BIN, "cake-opt"), src, "--cake-verify", "-o",
                                            os.devnull], capture_output=True, text=True)
                        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
                        self.assertEqual(r.stderr, "")            # not even a warning
                        r = subprocess.run([os.path.join(BIN, "cake-translate"), src, "--emit=ptx",
                                            "-o", os.path.join(tmp, name + ".ptx"), "--manifest",
                                            os.path.join(tmp, name + ".json")], capture_output=True, text=True)
                        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
                        with open(os.path.join(tmp, name + ".json")) as f:
                            manifests[name] = json.load(f)["kernels"][0]
                        with open(os.path.join(tmp, name + ".ptx")) as f:
                            ptx[name] = f.read()
            for m, p in all_variants():
                names = kernel_names(m, p)
                with self.subTest(variant=m.name(p)):
                    params = {}
                    for n in names:
                        for x in manifests[n]["params"]:
                            params.setdefault(x["name"], []).append(x)
                    ws = {n for n in params if n.startswith("ws_")}
                    self.assertEqual({n for n, xs in params.items() if xs[0]["kind"] == "tensor"} - ws,
                                     LAUNCH_TENSORS)
                    self.assertEqual({n: xs[0]["dtype"] for n, xs in params.items() if xs[0]["kind"] == "scalar"},
                                     {**LAUNCH_SCALARS, **(CHUNK_SCALARS if len(names) > 1 else {})})
                    sizes = {n for n, xs in params.items() if xs[0]["kind"] == "symbol"}
                    self.assertEqual(sizes, LAUNCH_SIZES | (CHUNK_SIZES if len(names) > 1 else set()))
                    # The trust check's view: inputs read, outputs written, nothing else; a
                    # workspace array is written by one pass and read by the ones after it.
                    self.assertEqual([x["access"] for x in params["out"]], ["write"])
                    self.assertEqual([x["access"] for x in params["final_state"]], ["write"])
                    self.assertTrue(all(x["access"] == "read" for t in LAUNCH_TENSORS - {"out", "final_state"}
                                        for x in params[t]))
                    for n in ws - CARRIED:
                        self.assertEqual([x["access"] for x in params[n]], ["write", "read"], n)
                    for n in ws & CARRIED:       # pass 2 reads what its previous launch wrote
                        self.assertEqual([x["access"] for x in params[n]], ["readwrite"], n)
                    last = manifests[names[-1]]
                    self.assertEqual(last["grid"], [str(m.slices(p)), "H", "N"])
                    text = "".join(ptx[n] for n in names)
                    self.assertIn("bar.sync", text)           # the per-chunk hand-off
                    if m is not recurrent:
                        self.assertIn("mma.sync.aligned.m16n8k16", text)
                        self.assertIn("cp.async", text)
                    if p.get("mma") == "wgmma":
                        self.assertIn("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16", text)
                    else:
                        self.assertIn("shfl.sync.bfly", text)     # the 8-lane column sums


class RuleTest(unittest.TestCase):
    def test_rule_names_variants_and_routes(self):
        rule = load_rule()
        names = {m.name(p) for m, p in all_variants()}
        for _, name in rule["rule"]:
            self.assertIn(name, names)
        self.assertIn(rule["default"], names)
        fast = rule["chunked"]
        for _, name in fast["rule"]:
            self.assertIn(name, names)
        self.assertIn(fast["default"], names)
        with tempfile.TemporaryDirectory() as tmp:
            fake_library(tmp)
            lib = KDALibrary(tmp)
            # Gates the chunked kernels can bound go to them, by (sequence, head) pairs.
            few, first = fast["rule"][0]
            for H, N in ((1, 1), (few, 1), (1, few)):
                self.assertEqual(lib.route(T=1000, H=H, N=N, lower_bound=-5.0), first)
            for H, N in ((96, 1), (64, 8), (few + 1, 1)):
                self.assertEqual(lib.route(T=1000, H=H, N=N, lower_bound=-5.0), fast["default"])
            # Below its bound, the recurrent rule by (sequence, head) pairs.
            bound, first = rule["rule"][0]
            self.assertEqual(lib.route(T=1000, H=bound, N=1, lower_bound=-50.0), first)
            self.assertEqual(lib.route(T=1000, H=bound + 1, N=1, lower_bound=-5.01), rule["default"])
            self.assertEqual(lib.route(T=1000, H=1, N=bound + 1, lower_bound=-1e4), rule["default"])
            self.assertFalse(lib.serves(fast["default"], -5.5))
            self.assertTrue(lib.serves(rule["default"], -1e4))
            # A call of a few tokens is a short recurrence: the recurrent rule whatever the gates.
            short = rule["short_tokens"]
            self.assertEqual(lib.route(T=short, H=bound, N=1, lower_bound=-5.0), first)
            self.assertEqual(lib.route(T=short, H=bound + 1, N=1, lower_bound=-1.0), rule["default"])
            self.assertEqual(lib.route(T=short + 1, H=1, N=1, lower_bound=-5.0), fast["rule"][0][1])

    def test_not_a_kda_library(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "library.json"), "w") as f:
                json.dump({"op": "kmeans_assign", "variants": []}, f)
            with self.assertRaisesRegex(ValueError, "not a KDA library"):
                KDALibrary(tmp)

    def test_variant_without_kernels_is_refused(self):
        # A library.json of the single-kernel format (a "manifest" per variant, no "kernels").
        with tempfile.TemporaryDirectory() as tmp:
            fake_library(tmp)
            with open(os.path.join(tmp, "library.json")) as f:
                d = json.load(f)
            for v in d["variants"]:
                v["manifest"] = v.pop("kernels")[0]["manifest"]
            with open(os.path.join(tmp, "library.json"), "w") as f:
                json.dump(d, f)
            with self.assertRaisesRegex(ValueError, "no \"kernels\" list .* rebuild it"):
                KDALibrary(tmp)
            r = cake("library", "route", "--library", tmp, "--shape", "T=10,H=1,N=1")
            self.assertEqual(r.returncode, 2)
            self.assertIn("rebuild it", r.stderr)
            self.assertNotIn("Traceback", r.stderr)

    def test_illegal_variant_is_refused(self):
        with self.assertRaises(ValueError):
            recurrent.generate({"chunk": 24, "cpt": 1})
        with self.assertRaises(ValueError):
            wy.generate_state({"vb": 48})


def cake(*args):
    return subprocess.run([os.path.join(ROOT, "agent", "cake"), *args], capture_output=True, text=True)


class CommandTest(unittest.TestCase):
    """`cake library route` and `cake library export` on a KDA library (a built one's library.json
    and stand-in cubins: what the commands read)."""

    def built(self, tmp):
        fake_library(tmp)
        os.makedirs(os.path.join(tmp, "kernels"))
        for m, p in all_variants():
            for k in kernel_names(m, p):
                with open(os.path.join(tmp, "kernels", k + ".cubin"), "wb") as f:
                    f.write(b"stand-in")
        return tmp

    def test_route(self):
        rule = load_rule()
        with tempfile.TemporaryDirectory() as tmp:
            lib = self.built(tmp)
            for shape, want in (("T=8192,H=96,N=1", rule["chunked"]["default"]),
                                ("T=32768,H=16,N=1", rule["chunked"]["rule"][0][1]),
                                ("T=300,H=4,N=1,lower_bound=-50", rule["rule"][0][1]),
                                ("T=300,H=64,N=2,lower_bound=-5.5", rule["default"])):
                r = cake("library", "route", "--library", lib, "--shape", shape)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(json.loads(r.stdout)["kernel"], want, shape)
            for shape, why in (("T=300,H=4", "missing N"), ("T=300,H=4,N=1,D=5", "got 'D=5'"),
                               ("T=0,H=4,N=1", "T = 0"), ("T=3,H=4,N=1,lower_bound=nan", "not finite"),
                               ("T=1,H=4,N=1,T=5", "T given twice"), ("T=1.5,H=4,N=1", "not an integer"),
                               ("T=3,H=4,N=1,lower_bound=x", "not a number")):
                r = cake("library", "route", "--library", lib, "--shape", shape)
                self.assertEqual(r.returncode, 2, shape)
                self.assertIn(why, r.stderr)

    def test_a_rule_naming_a_missing_variant_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            lib = self.built(tmp)
            with open(os.path.join(lib, "library.json")) as f:
                d = json.load(f)
            d["default"] = "kda_nope"
            with open(os.path.join(lib, "library.json"), "w") as f:
                json.dump(d, f)
            r = cake("library", "route", "--library", lib, "--shape", "T=3,H=1,N=1,lower_bound=-9")
            self.assertEqual(r.returncode, 2)
            self.assertIn("the rule names 'kda_nope'", r.stderr)

    def refused(self, field, bads, message):
        """Each bad value of `field` in library.json makes `cake library route` exit 2 saying so."""
        with tempfile.TemporaryDirectory() as tmp:
            lib = self.built(tmp)
            with open(os.path.join(lib, "library.json")) as f:
                d = json.load(f)
            for bad in bads:
                d[field] = bad
                with open(os.path.join(lib, "library.json"), "w") as f:
                    json.dump(d, f)
                r = cake("library", "route", "--library", lib, "--shape", "T=3,H=1,N=1,lower_bound=-9")
                self.assertEqual(r.returncode, 2, bad)
                self.assertIn(message, r.stderr)

    def test_the_definition_folder_says_to_build_first(self):
        r = cake("library", "route", "--library", KDA, "--shape", "T=8,H=1,N=1")
        self.assertEqual(r.returncode, 2)
        self.assertIn("a KDA definition folder: build it first", r.stderr)

    def test_a_rule_bound_that_is_not_a_count_is_refused(self):
        self.refused("rule", ([["x", "kda_rec_c16_p1"]], [[True, "kda_rec_c16_p1"]]), '"rule" is not a list')

    def test_the_python_route_names_a_bad_argument(self):
        with tempfile.TemporaryDirectory() as tmp:
            lib = KDALibrary(self.built(tmp))
            for args, why in (((0, 1, 1), "T = 0"), ((-5, 1, 1), "T = -5"), ((8.5, 1, 1), "T = 8.5"),
                              ((8, "1", 1), "H = '1'"), ((8, 1, None), "N = None"), ((8, 1, True), "N = True")):
                with self.assertRaisesRegex(ValueError, why):
                    lib.route(*args)
            with self.assertRaisesRegex(ValueError, "lower_bound: nan is not finite"):
                lib.route(8, 1, 1, float("nan"))
            with self.assertRaisesRegex(TypeError, "lower_bound: expected a number"):
                lib.route(8, 1, 1, None)
            self.assertEqual(lib.route(8, 1, 1), lib.route(8, 1, 1, -5))

    def test_a_bad_segments_rule_is_refused(self):
        self.refused("segments", ({"work": 0, "most": 8}, {"work": 4096}, [4096, 8],
                                  {"work": 4096, "most": True}), '"segments" must be')

    def test_a_bad_short_tokens_rule_is_refused(self):
        self.refused("short_tokens", (-1, "64", True, 6.5), '"short_tokens" must be')

    def test_segments_from_the_rule(self):
        with tempfile.TemporaryDirectory() as tmp:
            lib = KDALibrary(self.built(tmp))
            two = next(n for n in lib.variants if len(lib.stages(n)) == 2)
            one = next(n for n in lib.variants if len(lib.stages(n)) == 1)
            lib.definition["segments"] = {"work": 1000, "most": 8}
            self.assertEqual(lib.segments(two, 515, 96), 8)       # 49440 slot-heads: capped
            self.assertEqual(lib.segments(two, 515, 4), 3)        # 2060: ceil(2060 / 1000)
            self.assertEqual(lib.segments(two, 5, 1), 1)
            self.assertEqual(lib.segments(one, 515, 96), 1)       # a single pass is never split
            del lib.definition["segments"]
            self.assertEqual(lib.segments(two, 515, 96), 1)

    def test_export_is_self_contained(self):
        with tempfile.TemporaryDirectory() as tmp:
            lib = self.built(os.path.join(tmp, "lib"))
            pkg = os.path.join(tmp, "pkg")
            r = cake("library", "export", "--library", lib, "--out", pkg)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertNotIn("native dispatcher", r.stdout)           # KMeans only
            r = subprocess.run([sys.executable, "-c", "import cake_library; "
                                "print(cake_library.load_kda().route(8192, 96, 1, -50.0))"],
                               capture_output=True, text=True, cwd=tmp, env={"PYTHONPATH": pkg})
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stdout.strip(), load_rule()["default"])
            with open(os.path.join(pkg, "README.md")) as f:
                self.assertIn("cake_library.kda_fwd", f.read())


class GridTest(unittest.TestCase):
    def test_committed_grid_is_the_generated_one(self):
        with open(os.path.join(KDA, "grid.json")) as f:
            self.assertEqual(json.load(f), kda_grid.generate())

    def test_size_held_out_part_and_caps(self):
        cases = kda_grid.generate()["cases"]
        self.assertGreaterEqual(len(cases), 40)
        self.assertEqual(sum(c["heldout"] for c in cases), round(0.2 * len(cases)))
        for c in cases:
            T = sum(c["seq_lens"])
            self.assertTrue(1 <= T <= kda_grid.MAX_TOKENS and T * c["H"] <= kda_grid.MAX_WORK, c)
        # The edges the issue names are in it: packed batches with an empty sequence, length-1
        # sequences, gates only the recurrent family serves, given and zero states.
        self.assertTrue(any(0 in c["seq_lens"] for c in cases))
        self.assertTrue(any(1 in c["seq_lens"] for c in cases))
        self.assertTrue(any(c["lower_bound"] < -wy.MAX_NEG_BOUND for c in cases))
        self.assertTrue(any(c["h0"] for c in cases) and not all(c["h0"] for c in cases))


def cuda_torch():
    if importlib.util.find_spec("torch") is None:
        return None
    import torch
    return torch if torch.cuda.is_available() else None


@unittest.skipIf(cuda_torch() is None, "needs torch with a CUDA device (runs on the GPU machine)")
class BadInputTest(unittest.TestCase):
    """Every bad argument is an error naming it, raised before any kernel is loaded: the library
    here has no cubins, so a launch attempt would fail differently."""

    def setUp(self):
        torch = self.torch = cuda_torch()
        self.tmp = tempfile.TemporaryDirectory()
        fake_library(self.tmp.name)
        self.lib = KDALibrary(self.tmp.name)
        T, H = 10, 2
        bf = dict(dtype=torch.bfloat16, device="cuda")
        self.args = dict(q=torch.zeros(1, T, H, 128, **bf), k=torch.zeros(1, T, H, 128, **bf),
                         v=torch.zeros(1, T, H, 128, **bf), g=torch.zeros(1, T, H, 128, **bf),
                         beta=torch.zeros(1, T, H, **bf), scale=0.1,
                         A_log=torch.zeros(H, device="cuda"), dt_bias=torch.zeros(H, 128, device="cuda"),
                         lower_bound=-5.0)

    def tearDown(self):
        self.tmp.cleanup()

    def refused(self, pattern, **change):
        args = dict(self.args, **change)
        with self.assertRaisesRegex((ValueError, TypeError), pattern):
            self.lib.fwd(**args)

    def test_bad_arguments_name_themselves(self):
        torch = self.torch
        bf = dict(dtype=torch.bfloat16, device="cuda")
        self.refused("q: head dimension 64", q=torch.zeros(1, 10, 2, 64, **bf))
        self.refused("k: shape", k=torch.zeros(1, 9, 2, 128, **bf))
        self.refused("v: dtype", v=torch.zeros(1, 10, 2, 128, device="cuda"))
        self.refused("g: on cpu", g=torch.zeros(1, 10, 2, 128, dtype=torch.bfloat16))
        self.refused("beta: shape", beta=torch.zeros(1, 10, 3, **bf))
        self.refused("A_log: dtype", A_log=torch.zeros(2, **bf))
        self.refused("dt_bias: shape", dt_bias=torch.zeros(2, 64, device="cuda"))
        self.refused("q: not contiguous", q=torch.zeros(1, 10, 128, 2, **bf).transpose(2, 3))
        self.refused("scale: expected a number", scale="x")
        self.refused("lower_bound: nan is not finite", lower_bound=float("nan"))
        cu = lambda *v: torch.tensor(v, dtype=torch.int64, device="cuda")  # noqa: E731
        self.refused("cu_seqlens: expected non-decreasing", cu_seqlens=cu(0, 6, 4, 10))
        self.refused("cu_seqlens: expected non-decreasing offsets from 0 to T = 10", cu_seqlens=cu(0, 4, 9))
        self.refused("cu_seqlens: expected a 1-D int64", cu_seqlens=cu(0))
        self.refused("initial_state: shape", cu_seqlens=cu(0, 4, 10),
                     initial_state=torch.zeros(1, 2, 128, 128, device="cuda"))
        two = {n: torch.zeros(2, 5, 2, 128, **bf) for n in ("q", "k", "v", "g")}
        self.refused("cu_seqlens: given with B = 2", beta=torch.zeros(2, 5, 2, **bf), cu_seqlens=cu(0, 10),
                     **two)
        self.refused("q: shape .* has no tokens", q=torch.zeros(1, 0, 2, 128, **bf))
        self.refused("kernel: no variant named 'nope'", kernel="nope")
        self.refused("kernel: kda_wy_v64 does not serve lower_bound = -6.0", kernel="kda_wy_v64",
                     lower_bound=-6.0)
        self.refused("segments: expected a positive integer, got 0", segments=0)
        self.refused("segments: expected a positive integer, got 'x'", segments="x")
        self.refused("segments: expected a positive integer, got True", segments=True)


if __name__ == "__main__":
    unittest.main()
