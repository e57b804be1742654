"""The KMeans library: grid, kernel families, router, `cake library` commands and the export."""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from tests import util
from tests.util import BIN, ROOT, needs_tools

KMEANS = os.path.join(ROOT, "libraries", "kmeans")
RUNTIME = os.path.join(ROOT, "libraries", "runtime")
sys.path.insert(0, KMEANS)
sys.path.insert(0, RUNTIME)

import build as kbuild  # noqa: E402
import family  # noqa: E402
import grid  # noqa: E402
from cake_library.native import Native  # noqa: E402
from cake_library.route import NoKernel, Router, launch_sizes  # noqa: E402
from families.pad import PAD_BLOCK, pad_group  # noqa: E402
from families.tcd import tcd_smem_bytes  # noqa: E402


def cake(*args):
    return subprocess.run([os.path.join(ROOT, "agent", "cake"), *args], capture_output=True, text=True)


def load_json(path):
    with open(path) as f:
        return json.load(f)


class GridTest(unittest.TestCase):
    def test_committed_grid_is_the_generated_one(self):
        committed = load_json(os.path.join(KMEANS, "grid.json"))
        self.assertEqual(committed["shapes"], grid.generate(committed["count"], committed["seed"]))

    def test_ranges_heldout_and_caps(self):
        shapes = grid.generate(420, 2026)
        self.assertEqual(len(shapes), 420)
        self.assertEqual(sum(s["heldout"] for s in shapes), 84)
        self.assertEqual(len({(s["B"], s["N"], s["D"], s["K"], s["dtype"]) for s in shapes}), 420)
        for s in shapes:
            self.assertTrue(1 <= s["N"] <= 262144 and 1 <= s["K"] <= 8192 and 1 <= s["D"] <= 4096)
            self.assertTrue(1 <= s["B"] <= 8)
            el = 4 if s["dtype"] == "float32" else 2
            self.assertLessEqual(s["B"] * max(s["N"], s["K"]) * s["D"] * el, grid.MAX_BYTES)
        self.assertEqual({s["dtype"] for s in shapes}, set(grid.DTYPES))
        # Not a grid of friendly numbers: most D are not multiples of 8.
        self.assertGreater(sum(s["D"] % 8 != 0 for s in shapes), 200)
        self.assertNotEqual(grid.generate(420, 7), shapes)


class FamilyTest(unittest.TestCase):
    def test_shared_memory_bounds_legality(self):
        p = {"dtype": "float16", "chunks": 8, "bk": 256, "wg": 2, "xs": 2, "cs": 4, "grid": "persistent"}
        self.assertFalse(family.legal(p))
        with self.assertRaises(ValueError):
            family.generate(p)
        self.assertIsNone(kbuild.deepest("float16", 9, 256, 2, "persistent"))
        q = kbuild.deepest("float16", 2, 256, 2, "persistent")
        self.assertTrue(family.legal(q) and family.smem_bytes(q) <= family.SMEM_LIMIT)

    def test_trimmed_d_class(self):
        # bf16, 7 chunks of 64 columns, the last one trimmed to 2 of its 4 k16 steps: 26 wgmmas,
        # D up to 416, and the router is told so (the TMA boxes would take a wider D).
        p = {"dtype": "bfloat16", "chunks": 7, "bk": 64, "wg": 2, "xs": 1, "cs": 2, "grid": "persistent"}
        t = dict(p, tail=2)
        self.assertEqual((family.max_d(p), family.max_d(t)), (448, 416))
        self.assertEqual(family.name(t), "km_bf16_c7q2_k64_w2_x1_s2_p")
        self.assertEqual(family.FAMILIES["wgmma"].config(t), family.FAMILIES["wgmma"].config(p))
        self.assertEqual(family.FAMILIES["wgmma"].domain(t), ["D <= 416"])
        self.assertEqual(family.FAMILIES["wgmma"].domain(p), [])
        self.assertEqual(family.generate(p).count("= cake.wgmma %"), 28)
        self.assertEqual(family.generate(t).count("= cake.wgmma %"), 26)
        self.assertEqual(family.max_d(dict(p, dtype="float32", tail=1)), 6 * 32 + 8)
        for bad in (0, 4):
            self.assertFalse(family.legal(dict(p, tail=bad)))
        # In the plan unless build.py --no-tails: three trimmed classes per full wgmma class
        # (split-K variants have none).
        full = kbuild.plan(["bfloat16"], 8, tails=False, evolved_path=None)   # the sweep's own plan
        default = kbuild.plan(["bfloat16"], 8, evolved_path=None)
        self.assertFalse(any("tail" in q for q in full))
        self.assertEqual(sum("tail" in q for q in default),
                         3 * sum(kbuild.family_of(q) == "wgmma" and not family.split_k(q) for q in full))

    def test_split_k_variant(self):
        """Split-K (tma.py's split_k): one block per point tile and span of `ks` centroid tiles,
        argmins merged into `best` by an atomic minimum; served only where few point tiles
        leave the GPU idle; the finish kernel is not routed and has no 32-bit twin."""
        p = {"dtype": "float16", "chunks": 2, "bk": 128, "wg": 1, "xs": 1, "cs": 4, "grid": "tiles", "ks": 4}
        self.assertTrue(family.legal(p))
        self.assertFalse(family.legal(dict(p, ra=True)))
        self.assertEqual(family.name(p), "km_f16_c2_k128_w1_x1_s4_t_ks4")
        self.assertEqual(family.FAMILIES["wgmma"].config(p), "k128_w1_t_ks4")
        self.assertEqual(family.FAMILIES["wgmma"].domain(p), ["B * ceildiv(N, 64) <= 66", "K > 128"])
        ir = family.generate(p)
        self.assertIn("(b * (n ceildiv 64) * (k ceildiv 512))", ir)
        self.assertIn('{cake.name = "best"}', ir)
        self.assertNotIn('{cake.name = "idx"}', ir)
        self.assertEqual(ir.count("masked min : vector<2xi64>"), 1)
        d = {"dtype": "bfloat16", "g": 1, "bk": 256, "wg": 1, "st": 2, "grid": "tiles", "ks": 1}
        self.assertEqual(family.FAMILIES["splitd"].config(d), "sd1_k256_w1_t_ks1")
        self.assertIn("masked min", family.generate_splitd(d))
        planned = kbuild.plan(["float16"], 8)
        self.assertTrue(any(family.split_k(q) and kbuild.family_of(q) == "splitd" for q in planned))
        self.assertEqual([kbuild.variant_name(q) for q in kbuild.with_twins([{"finish": True}])],
                         ["km_best_finish"])

    def test_listed_kernels_are_the_runtimes_auxiliary_lists(self):
        """The package's runtime knows library.json's lists of unrouted kernels without the
        registry (route.py's AUXILIARY_LISTS): the same lists, in the same order; each listed
        family's plan is built, its entries name their kernel and carry its manifest."""
        from cake_library.route import AUXILIARY_LISTS
        listed = [f for f in family.FAMILIES.values() if f.listed]
        self.assertEqual(tuple(f.listed for f in listed), AUXILIARY_LISTS)
        plans = kbuild.auxiliary_plans(["float16"])
        self.assertEqual({kbuild.family_of(p) for p in plans},
                         {k for k, f in family.FAMILIES.items() if f.listed})
        variants, lists = kbuild.library_entries([(p, {"params": []}) for p in kbuild.with_twins(plans)])
        self.assertEqual(variants, [])
        self.assertEqual(list(lists), list(AUXILIARY_LISTS))
        pads = lists["pad_variants"]
        self.assertEqual([(v["name"], v["index_bits"]) for v in pads], [("km_f16_pad", 64), ("km_f16_pad_i32", 32)])
        self.assertEqual({v["name"]: v["max_d"] for v in lists["csq_variants"]},
                         {"km_f16_csq" + ("" if g == 32 else f"_l{g}"): family.CSQ_MAX_D[g] for g in family.CSQ_LANES})
        self.assertTrue(all(v["manifest"] == {"params": []} for k in lists for v in lists[k]))

    @needs_tools
    def test_specialized_variants(self):
        # build.py --specialize: a planned variant with sizes fixed at compile time, under its own
        # name and configuration, table-only; its manifest requires those sizes, so the router
        # finds it legal at that D only.
        plan_now = kbuild.with_twins(kbuild.plan(["float16"], 2))
        generic = next(p for p in plan_now if kbuild.family_of(p) == "tcd" and kbuild.index_bits(p) == 64)
        name = kbuild.variant_name(generic)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "spec.json")
            with open(path, "w") as f:
                json.dump([{"variant": name, "sizes": {"D": 10, "K": 17}}], f)
            [p] = kbuild.specialized(path, plan_now)
            for bad, why in (([{"variant": "km_nope", "sizes": {"D": 1}}], "no variant km_nope"),
                             ([{"variant": name, "sizes": {"D": -1}}], "non-negative integers"),
                             ([{"variant": name, "sizes": {}}], "non-negative integers"),
                             ({"variant": name}, "not a JSON list")):
                with open(path, "w") as f:
                    json.dump(bad, f)
                self.assertIn(why, kbuild.specialized(path, plan_now))
            self.assertEqual(kbuild.variant_name(p), name + "_xd10k17")
            self.assertEqual(kbuild.config_name(p), kbuild.config_name(generic) + "_xd10k17")
            ir = kbuild.kernel_ir(p, BIN)
            self.assertIn("specialize = {D = 10 : i64, K = 17 : i64}", ir)
            self.assertIn("@" + name + "_xd10k17(", ir)
            src = os.path.join(tmp, "k.mlir")
            with open(src, "w") as f:
                f.write(ir)
            r = subprocess.run([os.path.join(BIN, "cake-translate"), src, "--emit=manifest"],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
        manifest = json.loads(r.stdout)["kernels"][0]
        self.assertIn("D == 10", manifest["constraints"])
        entry = kbuild.describe(p, manifest)
        self.assertTrue(entry["table_only"])
        self.assertNotIn("table_only", kbuild.describe(generic, manifest))
        router = Router({"op": "kmeans_assign", "variants": [entry, kbuild.describe(generic, {})],
                         "table": {"points": [{"dtype": "float16", "B": 1, "N": 7, "D": 10, "K": 17,
                                               "ms": {entry["config"]: 0.001}}]}})
        self.assertEqual({v["name"] for v in router.legal(1, 7, 10, 17, "float16")}, {name, entry["name"]})
        self.assertEqual({v["name"] for v in router.legal(1, 7, 12, 17, "float16")}, {name})
        self.assertEqual(router.route(1, 7, 10, 17, "float16")["kernel"], entry["name"])

    def test_committed_variants_are_the_plan(self):
        committed = load_json(os.path.join(KMEANS, "variants.json"))["variants"]
        planned = {kbuild.variant_name(p) for p in kbuild.with_twins(kbuild.plan(list(family.DTYPES), 8))}
        self.assertEqual({v["name"] for v in committed}, planned)

    @needs_tools
    def test_flat_tcd_experiment_verifies(self):
        # `fl` is not in the plan (build.py --flat-tcd): x and c as flat arrays of BND and BKD
        # elements, every load inside them (cake-verify's bounds check), for both element widths.
        for p in ({"dtype": "bfloat16", "r": 2, "kn": 4, "v": 8, "fl": 1},
                  {"dtype": "float32", "r": 1, "kn": 4, "v": 4, "ws": 4, "fl": 1}):
            r = subprocess.run([os.path.join(BIN, "cake-opt"), "-", "--cake-verify", "-o", os.devnull],
                               input=family.generate_tcd(p), capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            r = subprocess.run([os.path.join(BIN, "cake-translate"), "-", "--emit=manifest"],
                               input=family.generate_tcd(p), capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            kernel = json.loads(r.stdout)["kernels"][0]
            self.assertEqual(kernel["symbols"], ["B", "N", "K", "D", "BND", "BKD"])
            self.assertEqual([q["shape"] for q in kernel["params"][:2]], [["BND"], ["BKD"]])
        with self.assertRaises(ValueError):       # hx is for one step of D, never split
            family.generate_tcd({"dtype": "float16", "r": 1, "kn": 4, "v": 8, "ws": 4, "hx": 1})

    @needs_tools
    def test_three_warpgroup_tiles_verify_and_serve_their_points(self):
        # wgmma tiles of three consumer warpgroups (192 points): fp16 and bf16 only, table-only
        # (measured at a sparse sample), each verifies, runs 512 threads and its register split
        # fits the SM.
        w3 = [p for p in kbuild.plan(["float16", "float32"], 8, evolved_path=None) if p.get("wg") == 3]
        self.assertTrue(w3)
        self.assertEqual({p["dtype"] for p in w3}, {"float16"})
        self.assertTrue(all(family.legal(p) and family.FAMILIES["wgmma"].table_only(p) for p in w3))
        self.assertEqual({p["bk"] for p in w3}, {64, 128})
        widest = max(w3, key=lambda p: (p["chunks"], p["bk"]))
        for p in (min(w3, key=lambda p: p["chunks"]), widest):
            ir = family.generate(p)
            r = subprocess.run([os.path.join(BIN, "cake-opt"), "-", "--cake-verify", "-o", os.devnull],
                               input=ir, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            r = subprocess.run([os.path.join(BIN, "cake-translate"), "-", "--emit=manifest"],
                               input=ir, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(json.loads(r.stdout)["kernels"][0]["block"][0], 512)
            consumer = int(ir.split('cake.role "consumer" warps [4, 16) regs ')[1].split()[0])
            producer = int(ir.split('cake.role "producer" warps [0, 4) regs ')[1].split()[0])
            self.assertLessEqual(consumer * 384 + producer * 128, 65536)
        self.assertFalse(family.legal(dict(widest, chunks=8)))     # x's tile no longer fits
        self.assertFalse(family.legal(dict(widest, ra=True)))      # no registers for A fragments

    @needs_tools
    def test_resident_centroid_tcd_verifies(self):
        # `cs`: the centroids of a batch copied into shared memory (any K up to 8 kn, any D up to
        # the class), a persistent grid walking batch-major runs of point tiles; cake-verify
        # checks the copy's barriers and bounds (a tile past N, a batch past B), for an odd D (x
        # read element by element) and fp32's split.
        # `ck`: several passes over K on a copy of ck rows, x held in registers (hx). Two row
        # tiles per warp (up to kn 8) read each centroid fragment once for both.
        for p in ({"dtype": "bfloat16", "r": 1, "kn": 9, "v": 1, "cs": 160, "pg": 3},
                  {"dtype": "float16", "r": 2, "kn": 5, "v": 1, "cs": 128, "pg": 2},
                  {"dtype": "float32", "r": 1, "kn": 3, "v": 4, "cs": 64, "pg": 2},
                  {"dtype": "float16", "r": 1, "kn": 4, "v": 2, "cs": 32, "ck": 512, "hx": 1, "pg": 4}):
            r = subprocess.run([os.path.join(BIN, "cake-opt"), "-", "--cake-verify", "-o", os.devnull],
                               input=family.generate_tcd(p), capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(family.tcd_domain({"dtype": "bfloat16", "r": 1, "kn": 9, "v": 1, "cs": 160, "pg": 3}),
                         ["K <= 72", "D <= 160"])
        self.assertEqual(family.tcd_domain({"dtype": "float16", "r": 2, "kn": 5, "v": 1, "cs": 128, "pg": 2}),
                         ["K <= 40", "D <= 128"])
        self.assertEqual(family.tcd_domain({"dtype": "float32", "r": 1, "kn": 4, "v": 1, "cs": 16, "ck": 768,
                                            "hx": 1, "pg": 3}), ["K <= 768", "D <= 16"])
        for bad in ({"cs": 160, "pg": 3, "ws": 4}, {"cs": 150, "pg": 3}, {"cs": 160, "pg": 3, "kn": 17},
                    {"cs": 160, "pg": 3, "r": 2}, {"cs": 160, "pg": 3, "r": 3, "kn": 2},
                    {"cs": 160, "pg": 3, "hx": 1}, {"cs": 160},
                    {"cs": 160, "pg": 5}, {"pg": 3}, {"cs": 160, "pg": 3, "tt": 4},
                    {"cs": 32, "pg": 3, "ck": 144}, {"cs": 32, "pg": 3, "ck": 150, "hx": 1},
                    {"cs": 64, "pg": 3, "ck": 144, "hx": 1}, {"cs": 32, "pg": 3, "ck": 72, "hx": 1},
                    {"ck": 144, "hx": 1}):
            with self.assertRaises(ValueError):
                family.generate_tcd(dict({"dtype": "bfloat16", "r": 1, "kn": 9, "v": 1}, **bad))

    @needs_tools
    def test_staged_x_tcd_verifies_and_reads_x_from_its_copy(self):
        # `stx` (build.py --staged-x, not in the plan): each point tile's x copied into shared
        # memory by coalesced element loads (zeros past N and D), the fragments read there 16
        # bytes at a time; cake-verify checks the copy's barriers and bounds, ptxas compiles it.
        # The D loop reads x only from the copy; the rows' pitch is the class plus 16 bytes.
        for p in ({"dtype": "bfloat16", "r": 1, "kn": 9, "v": 1, "cs": 192, "pg": 2, "stx": 1},
                  {"dtype": "float16", "r": 2, "kn": 4, "v": 1, "cs": 64, "pg": 3, "stx": 1},
                  {"dtype": "float32", "r": 1, "kn": 3, "v": 1, "cs": 64, "pg": 4, "stx": 1}):
            ir = family.generate_tcd(p)
            for tool, extra in (("cake-opt", ["--cake-verify", "-o", os.devnull]),
                                ("cake-translate", ["--emit=ptx", "-o", os.devnull])):
                r = subprocess.run([os.path.join(BIN, tool), "-"] + extra, input=ir, capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, f"{family.tcd_name(p)} {tool}: {r.stderr}")
            d_loop = ir.split("scf.for %d = ")[1].split("scf.yield")[0]
            self.assertNotIn("cake.load %x[", d_loop)
            span = family.tcd_span(p["dtype"])
            self.assertIn(f"!cake.smem<{16 * p['r'] * 4}x{p['cs'] + span}x", ir)
            self.assertEqual(family.tcd_domain(p), [f"K <= {8 * p['kn']}", f"D <= {p['cs']}"])
            self.assertIn("_stx_cs", family.tcd_name(p))
        staged = [p for p in kbuild.plan(["bfloat16"], 8, evolved_path=None, staged_x=True) if p.get("stx")]
        self.assertTrue(staged)
        self.assertFalse(any(p.get("stx") for p in kbuild.plan(["bfloat16"], 8, evolved_path=None)))
        for p in staged:      # both copies fit the SM at pg blocks
            self.assertLessEqual(p["pg"] * (tcd_smem_bytes(p) + 1024), 228 * 1024)
        base = {"dtype": "bfloat16", "r": 1, "kn": 9, "v": 1, "cs": 192, "pg": 2}
        for bad in ({"stx": 1, "v": 2}, {"stx": 1, "pf": 1}, {"stx": 2}, {"stx": 1, "cs": 0, "pg": 0},
                    {"stx": 1, "r": 2, "kn": 8, "cs": 256, "pg": 3}):     # 100 KB a block, 3 blocks
            with self.assertRaises(ValueError):
                family.generate_tcd(dict(base, **bad))

    def test_pipelined_tcd_verifies(self):
        # `pf`: each D step's x and c loads issued one step ahead, carried as the D loop's
        # arguments (the last step's prefetch reads clamped columns, zeroed); with split D too,
        # and with resident centroids (x only: c is read from shared memory in its step).
        for p in ({"dtype": "bfloat16", "r": 1, "kn": 8, "v": 1, "pf": 1},
                  {"dtype": "float32", "r": 2, "kn": 4, "v": 4, "pf": 1},
                  {"dtype": "float16", "r": 1, "kn": 2, "v": 2, "ws": 4, "pf": 1},
                  {"dtype": "bfloat16", "r": 1, "kn": 9, "v": 1, "cs": 192, "pg": 3, "pf": 1}):
            ir = family.generate_tcd(p)
            self.assertIn("%dqn = arith.addi %dq", ir)
            r = subprocess.run([os.path.join(BIN, "cake-opt"), "-", "--cake-verify", "-o", os.devnull],
                               input=ir, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("%dqn", family.generate_tcd({"dtype": "bfloat16", "r": 1, "kn": 8, "v": 1}))
        for bad in ({"pf": 2}, {"pf": 1, "hx": 1}, {"pf": 1, "fl": 1, "v": 8},
                    {"pf": 1, "cs": 32, "pg": 3, "kn": 4, "ck": 512, "hx": 1}):
            with self.assertRaises(ValueError):
                family.generate_tcd(dict({"dtype": "bfloat16", "r": 1, "kn": 8, "v": 1}, **bad))

    def test_one_substep_tcd_halves_the_mma_of_small_d(self):
        # `sub1` (with hx): a step of one mma k-step, a lane reading `per` columns of a row: D <= 16
        # (fp32: 8) in one mma per tile and pass instead of two; v at most half the 16-byte span.
        for p, mma in (({"dtype": "bfloat16", "r": 4, "kn": 2, "v": 1, "hx": 1, "sub1": 1}, 8),
                       ({"dtype": "float16", "r": 2, "kn": 4, "v": 4, "hx": 1, "sub1": 1}, 8),
                       ({"dtype": "float32", "r": 1, "kn": 8, "v": 2, "hx": 1, "sub1": 1, "tf": 1}, 8),
                       ({"dtype": "float32", "r": 1, "kn": 2, "v": 1, "hx": 1, "sub1": 1}, 6)):
            ir = family.generate_tcd(p)
            self.assertEqual(ir.count("cake.mma_sync"), mma, p)
            base = family.generate_tcd({k: v for k, v in p.items() if k != "sub1"})
            self.assertEqual(base.count("cake.mma_sync"), 2 * mma, p)
            r = subprocess.run([os.path.join(BIN, "cake-opt"), "-", "--cake-verify", "-o", os.devnull],
                               input=ir, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            span = family.tcd_span(p["dtype"]) // 2
            self.assertEqual(family.tcd_domain(p)[0], f"D <= {4 * span}")
        for bad in ({"sub1": 1}, {"sub1": 1, "hx": 1, "v": 8}, {"sub1": 2, "hx": 1},
                    {"sub1": 1, "v": 8, "fl": 1}):
            with self.assertRaises(ValueError):
                family.generate_tcd(dict({"dtype": "bfloat16", "r": 1, "kn": 8, "v": 1}, **bad))
        planned = [p for p in family.tcd_variants() if p.get("sub1")]
        self.assertTrue(planned)
        self.assertTrue(all(p.get("hx") and 2 * p["v"] <= family.tcd_span(p["dtype"]) for p in planned))

    def test_split_simt_merges_through_shared_memory_and_stays_in_its_domain(self):
        # `sk` warps per point: each warp's partial argmin goes to shared memory, a barrier, then
        # the point's first warp merges them. Without the barrier the verifier finds the race.
        ir = family.generate_simt({"dtype": "bfloat16", "ppb": 4, "u": 4, "kr": 2, "sk": 4})
        self.assertIn("block = array<i64: 512>", ir)
        self.assertIn("step %c256", ir)                   # 32 lanes x kr 2 x sk 4 centroids a step
        for text, ok in ((ir, True), (ir.replace("  cake.barrier\n", ""), False)):
            r = subprocess.run([os.path.join(BIN, "cake-opt"), "-", "--cake-verify", "-o", os.devnull],
                               input=text, capture_output=True, text=True)
            self.assertEqual(r.returncode == 0, ok, r.stderr)
            if not ok:
                self.assertIn("race.missing-barrier", r.stderr)
        with self.assertRaises(ValueError):               # 64 warps: more than a block holds
            family.generate_simt({"dtype": "bfloat16", "ppb": 2, "u": 4, "kr": 2, "sk": 32})
        committed = [v for v in load_json(os.path.join(KMEANS, "variants.json"))["variants"]
                     if v["family"] == "simt" and v["params"].get("sk")]
        self.assertTrue(committed)
        for v in committed:
            self.assertIn("B * N <= 8192", v["constraints"])
        r = Router({"op": "kmeans_assign", "variants": committed, "table": {"points": []}})
        self.assertTrue(r.legal(4, 142, 2, 6063, "bfloat16"))
        with self.assertRaises(NoKernel):                 # many points: outside the domain
            r.legal(8, 200000, 2, 6063, "bfloat16")

    def test_k_split_tcd_merges_ties_to_the_smaller_index(self):
        # `kw` warps on the same rows, warp w taking centroid tiles w, w + kw, ...: their argmins
        # meet in shared memory after a barrier, a tie going to the smaller index (the warps'
        # centroids interleave, so warp order is not index order). Without the barrier: a race.
        ir = family.generate_tcd({"dtype": "bfloat16", "r": 1, "kn": 8, "v": 1, "kw": 8})
        self.assertIn("block = array<i64: 256>", ir)
        self.assertIn("step %c512", ir)                   # 8 warps x 64 centroids a step
        self.assertIn("arith.cmpf oeq", ir)
        for text, ok in ((ir, True), (ir.replace("  cake.barrier\n", ""), False)):
            r = subprocess.run([os.path.join(BIN, "cake-opt"), "-", "--cake-verify", "-o", os.devnull],
                               input=text, capture_output=True, text=True)
            self.assertEqual(r.returncode == 0, ok, r.stderr)
        for bad in ({"kw": 3}, {"kw": 8, "ws": 4}, {"kw": 8, "pf": 1}, {"kw": 4, "kn": 16}):
            with self.assertRaises(ValueError):
                family.generate_tcd(dict({"dtype": "bfloat16", "r": 1, "kn": 8, "v": 1}, **bad))
        committed = {v["config"]: v for v in load_json(os.path.join(KMEANS, "variants.json"))["variants"]
                     if v["family"] == "tcd" and v["dtype"] == "float16"}
        self.assertIn("B * N <= 16384", committed["tcd_r1_n8_v8_kw16"]["constraints"])
        self.assertIn("K >= 128", committed["tcd_r1_n8_v8_kw16"]["constraints"])
        self.assertIn("D <= 32", committed["tcd_r1_n4_v1_kw4_hx"]["constraints"])

    def test_cpw_alignment_is_in_its_domain(self):
        # cpw reads x and c as flat arrays: the manifest cannot see a row's alignment, so the
        # family's domain carries it (v elements per copy), and the router never extrapolates past it.
        committed = {v["config"]: v for v in load_json(os.path.join(KMEANS, "variants.json"))["variants"]
                     if v["family"] == "cpw" and v["dtype"] == "bfloat16"}
        self.assertIn("mod(D, 8) == 0", committed["cpw1_k128_w1_s4_v8"]["constraints"])
        self.assertIn("mod(D, 2) == 0", committed["cpw1_k128_w1_s4_v2"]["constraints"])
        self.assertEqual(kbuild.family_of({"dtype": "float32", "g": 1, "bk": 64, "wg": 1, "st": 4, "v": 1}), "cpw")
        self.assertEqual(kbuild.family_of({"dtype": "float32", "g": 1, "bk": 64, "wg": 1, "st": 4, "grid": "tiles"}),
                         "splitd")
        with self.assertRaises(ValueError):       # 96 copies per thread and stage: spills
            family.generate_cpw({"dtype": "float32", "g": 2, "bk": 128, "wg": 1, "st": 4, "v": 1})
        with self.assertRaises(ValueError):       # 2-byte copies do not exist
            family.generate_cpw({"dtype": "bfloat16", "g": 1, "bk": 64, "wg": 1, "st": 4, "v": 1})

    def test_generated_variants_verify_and_their_constraints_are_committed(self):
        committed = {v["name"]: v for v in load_json(os.path.join(KMEANS, "variants.json"))["variants"]}
        picks = [kbuild.deepest("bfloat16", 3, 128, 1, "tiles"), kbuild.deepest("float32", 2, 64, 2, "persistent"),
                 kbuild.deepest("float16", 8, 64, 1, "persistent"), {"dtype": "float32", "ppb": 4},
                 {"dtype": "bfloat16", "g": 2, "bk": 128, "wg": 2, "st": 3, "grid": "tiles"},
                 {"dtype": "float16", "dp": 96, "rows": 16, "tile": 64},
                 {"update": True, "dtype": "bfloat16", "ppb": 8},
                 {"update": True, "dtype": "float32", "ppb": 8, "chunk": 256},
                 {"update": True, "dtype": "float16", "ppb": 8, "chunk": 32},
                 {"dtype": "float32", "r": 2, "kn": 4, "v": 2},
                 {"dtype": "bfloat16", "r": 1, "kn": 8, "v": 1, "ws": 8},
                 {"dtype": "float16", "r": 1, "kn": 16, "v": 2, "ws": 4},
                 {"dtype": "bfloat16", "r": 2, "kn": 8, "v": 1, "hx": 1},
                 {"dtype": "float32", "r": 1, "kn": 2, "v": 2, "tf": 1, "hx": 1},
                 {"dtype": "bfloat16", "ppb": 2, "u": 8, "kr": 2}, {"dtype": "float32", "ppb": 8, "u": 4},
                 {"dtype": "float32", "ppb": 1, "u": 8, "kr": 2, "sk": 32},
                 {"dtype": "float16", "pts": 128, "tk": 32, "dmax": 128},
                 {"dtype": "float32", "pts": 64, "tk": 8, "dmax": 256},
                 {"dtype": "float32", "g": 1, "bk": 128, "wg": 2, "st": 4, "v": 1},
                 {"dtype": "bfloat16", "g": 2, "bk": 64, "wg": 1, "st": 4, "v": 8}]
        with tempfile.TemporaryDirectory() as tmp:
            for p in picks:
                name = kbuild.variant_name(p)
                src = os.path.join(tmp, name + ".mlir")
                with open(src, "w") as f:
                    f.write(kbuild.kernel_ir(p, BIN))
                r = subprocess.run([os.path.join(BIN, "cake-opt"), src, "--cake-verify", "-o", os.devnull],
                                   capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, r.stderr)
                r = subprocess.run([os.path.join(BIN, "cake-translate"), src, "--emit=manifest"],
                                   capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, r.stderr)
                manifest = json.loads(r.stdout)["kernels"][0]
                if kbuild.family_of(p) == "update":     # not routed: no entry in variants.json
                    self.assertEqual([q["name"] for q in manifest["params"]][:4], ["x", "idx", "sums", "counts"])
                    continue
                # The manifest's constraints plus the family's domain (build.py's describe).
                self.assertEqual(kbuild.describe(p, manifest)["constraints"], committed[name]["constraints"], name)


def synthetic_definition(points, dtypes=("float16",)):
    variants = []
    for dtype in dtypes:
        for chunks in (1, 2):
            for cfg in ("k128_w2_p", "k64_w1_t"):
                variants.append({"name": f"w_{chunks}_{cfg}", "family": "wgmma", "dtype": dtype,
                                 "max_d": 64 * chunks, "d_align": 8, "staging": "rows+csq", "config": cfg,
                                 "constraints": ["mod(D, 8) == 0", "K >= 1"]})
        variants.append({"name": "simt", "family": "simt", "dtype": dtype, "max_d": None, "d_align": 1,
                         "staging": "none", "config": "simt_w4", "constraints": ["K >= 1"]})
        variants.append({"name": "sd", "family": "splitd", "dtype": dtype, "max_d": None, "d_align": 8,
                         "staging": "rows+csq", "config": "sd1_k128_w2_p", "constraints": ["mod(D, 8) == 0"]})
        for d in (32, 64):
            variants.append({"name": f"m{d}", "family": "mma", "dtype": dtype, "max_d": d, "d_align": 8,
                             "staging": "rows", "config": "mma_r16_t64", "constraints": ["mod(D, 8) == 0"]})
        for d in (16, 64):
            variants.append({"name": f"dir{d}", "family": "direct", "dtype": dtype, "max_d": d, "d_align": 1,
                             "staging": "none", "config": "direct_p128_k8", "constraints": ["K >= 1"]})
    return {"op": "kmeans_assign", "variants": variants, "table": {"points": points, "neighbours": 2}}


class RouterTest(unittest.TestCase):
    def test_table_only_configuration_serves_its_own_points(self):
        # A table-only variant (tcd's resident-centroid kernels: measured only where its tile
        # fits tightly) wins at the point that measured it, and is never judged elsewhere, even
        # where that point is the only neighbour and it was the fastest there.
        d = synthetic_definition([{"dtype": "float16", "B": 1, "N": 1000, "D": 61, "K": 40,
                                   "ms": {"simt_w4": 0.010, "cs_only": 0.004}}])
        d["variants"].append({"name": "cs", "family": "tcd", "dtype": "float16", "max_d": 64, "d_align": 1,
                              "staging": "none", "config": "cs_only", "constraints": ["K <= 48"],
                              "table_only": True})
        r = Router(d)
        self.assertEqual(r.route(1, 1000, 61, 40, "float16")["kernel"], "cs")
        self.assertEqual(r.route(1, 1100, 61, 40, "float16")["kernel"], "simt")
        d["variants"][-1]["table_only"] = False      # judged by its neighbour: chosen there too
        self.assertEqual(Router(d).route(1, 1100, 61, 40, "float16")["kernel"], "cs")

    def test_each_configuration_takes_its_narrowest_class(self):
        # A trimmed D class of one configuration (wgmma's `tail`) must not hide the other
        # configurations of its family, whose narrowest covering class is wider.
        d = synthetic_definition([])
        d["variants"].append({"name": "w_2q2_k128_w2_p", "family": "wgmma", "dtype": "float16", "max_d": 96,
                              "d_align": 8, "staging": "rows+csq", "config": "k128_w2_p",
                              "constraints": ["mod(D, 8) == 0", "K >= 1", "D <= 96"]})
        r = Router(d)
        self.assertEqual(sorted(v["name"] for v in r.legal(1, 100, 88, 5, "float16")),
                         ["sd", "simt", "w_2_k64_w1_t", "w_2q2_k128_w2_p"])
        self.assertEqual(sorted(v["name"] for v in r.legal(1, 100, 104, 5, "float16")),
                         ["sd", "simt", "w_2_k128_w2_p", "w_2_k64_w1_t"])

    def test_legal_d_class_and_sizes(self):
        r = Router(synthetic_definition([]))
        names = sorted(v["name"] for v in r.legal(1, 100, 70, 5, "float16"))
        self.assertEqual(names, ["sd", "simt", "w_2_k128_w2_p", "w_2_k64_w1_t"])
        self.assertEqual(sorted(v["name"] for v in r.legal(1, 100, 129, 5, "float16")), ["sd", "simt"])
        # The smallest class is per configuration: D = 20 takes mma's 32, wgmma's 64 and direct's 64.
        self.assertEqual(sorted(v["name"] for v in r.legal(1, 100, 20, 5, "float16")),
                         ["dir64", "m32", "sd", "simt", "w_1_k128_w2_p", "w_1_k64_w1_t"])
        self.assertEqual(sorted(v["name"] for v in r.legal(1, 100, 16, 5, "float16"))[0], "dir16")
        # direct reads the tensors as they are: the user's D, no |c|^2 pitch.
        direct = next(v for v in synthetic_definition([])["variants"] if v["name"] == "dir64")
        self.assertEqual(launch_sizes(direct, 2, 100, 61, 1001),
                         {"B": 2, "N": 100, "K": 1001, "D": 61, "BND": 12200, "BKD": 122122})
        self.assertEqual(r.route(1, 100, 20, 5, "float16")["kernel"], "w_1_k128_w2_p")
        route = r.route(2, 100, 61, 1001, "float16")
        self.assertEqual(route["kernel"], "w_1_k128_w2_p")           # no table: the default
        self.assertEqual(route["sizes"], {"B": 2, "N": 100, "K": 1001, "D": 64, "KP": 1004, "BKP": 2008,
                                           "BND": 12800, "BKD": 128128})
        self.assertEqual(r.route(1, 100, 61, 1001, "float16")["sizes"]["KP"], 1001)
        self.assertEqual(r.route(1, 100, 300, 7, "float16")["sizes"],
                         {"B": 1, "N": 100, "K": 7, "D": 300, "BND": 30000, "BKD": 2100})
        # Without measurements a D beyond the wgmma classes goes to the default (simt), not to the
        # unmeasured splitd.
        self.assertEqual(r.route(1, 100, 300, 7, "float16")["kernel"], "simt")

    def test_errors_name_the_problem(self):
        r = Router(synthetic_definition([]))
        with self.assertRaisesRegex(NoKernel, "dtype 'float32'"):
            r.route(1, 1, 1, 1, "float32")
        with self.assertRaisesRegex(NoKernel, "K = 0"):
            r.route(1, 1, 1, 0, "float16")
        with self.assertRaises(ValueError):
            Router({"op": "knn", "variants": []})

    def test_nearest_measurements_choose(self):
        small = {"dtype": "float16", "B": 1, "N": 64, "D": 32, "K": 16,
                 "ms": {"k128_w2_p": 0.02, "k64_w1_t": 0.01, "simt_w4": 0.005}}
        large = {"dtype": "float16", "B": 4, "N": 200000, "D": 64, "K": 4000,
                 "ms": {"k128_w2_p": 1.0, "k64_w1_t": 1.5, "simt_w4": 40.0}}
        r = Router(synthetic_definition([small, dict(small, N=80), large, dict(large, N=150000)]))
        self.assertEqual(r.route(1, 70, 30, 20, "float16")["config"], "simt_w4")
        self.assertEqual(r.route(3, 170000, 60, 3000, "float16")["config"], "k128_w2_p")
        # Only legal configurations compete: D = 100 has no measured wgmma point of its class,
        # but the configuration's relative times still carry over from the neighbours.
        self.assertEqual(r.route(3, 170000, 100, 3000, "float16")["kernel"], "w_2_k128_w2_p")

    def test_ranking_orders_what_route_chooses_from(self):
        small = {"dtype": "float16", "B": 1, "N": 64, "D": 32, "K": 16,
                 "ms": {"k128_w2_p": 0.02, "k64_w1_t": 0.01, "simt_w4": 0.005}}
        r = Router(synthetic_definition([small, dict(small, N=80)]))
        ranked = r.ranking(1, 70, 30, 20, "float16")
        self.assertEqual([c for c, _ in ranked], ["simt_w4", "k64_w1_t", "k128_w2_p"])
        self.assertEqual(ranked[0][0], r.route(1, 70, 30, 20, "float16")["config"])
        self.assertAlmostEqual(ranked[0][1], 1.0)          # the best at both neighbours
        self.assertAlmostEqual(ranked[1][1], 2.0)          # twice as slow at both
        self.assertEqual(Router(synthetic_definition([])).ranking(1, 70, 30, 20, "float16"), [])

    def test_nearer_measurements_weigh_more(self):
        # Two neighbours (neighbours = 2): the query sits on the first. With equal weights the far
        # point's 4x preference for simt would outvote the near point's 2x preference for the
        # wgmma tile; inverse-distance weights let the near point decide.
        near = {"dtype": "float16", "B": 1, "N": 1000, "D": 64, "K": 64,
                "ms": {"k128_w2_p": 0.01, "simt_w4": 0.02}}
        far = {"dtype": "float16", "B": 1, "N": 8000, "D": 64, "K": 64,
               "ms": {"k128_w2_p": 0.04, "simt_w4": 0.01}}
        r = Router(synthetic_definition([near, far]))
        self.assertEqual(r.route(1, 1000, 64, 64, "float16")["config"], "k128_w2_p")
        self.assertEqual(r.route(1, 8000, 64, 64, "float16")["config"], "simt_w4")

    def test_a_measured_shape_takes_its_own_best(self):
        # Three close neighbours prefer simt 4x; the query's own point prefers the wgmma tile
        # 1.1x. Weighted, the neighbours would outvote it; a measured shape keeps its best.
        own = {"dtype": "float16", "B": 2, "N": 1000, "D": 64, "K": 64,
               "ms": {"k128_w2_p": 0.010, "simt_w4": 0.011}}
        others = [dict(own, N=n, ms={"k128_w2_p": 0.04, "simt_w4": 0.01}) for n in (900, 1100, 1200)]
        definition = synthetic_definition([own] + others)
        definition["table"]["neighbours"] = 4
        r = Router(definition)
        self.assertEqual(r.route(2, 1000, 64, 64, "float16")["config"], "k128_w2_p")
        self.assertEqual(r.route(2, 1001, 64, 64, "float16")["config"], "simt_w4")

    def test_kindred_dtype_points_count_farther(self):
        # A bf16 query with no bf16 point routes by the fp16 points (same kernels, same tensor
        # cores) rather than falling back to the default (k128_w2_p); a bf16 point at the same
        # shape outweighs them; fp32 points never count.
        f16 = {"dtype": "float16", "B": 1, "N": 1000, "D": 64, "K": 64,
               "ms": {"k128_w2_p": 0.04, "simt_w4": 0.01}}
        f32 = {"dtype": "float32", "B": 1, "N": 1000, "D": 64, "K": 64,
               "ms": {"k128_w2_p": 0.01, "simt_w4": 0.04}}
        kinds = ("float16", "bfloat16", "float32")
        r = Router(synthetic_definition([f16, f32], kinds))
        self.assertEqual(r.route(1, 1000, 64, 64, "bfloat16")["config"], "simt_w4")
        bf16 = dict(f16, dtype="bfloat16", ms={"k128_w2_p": 0.01, "simt_w4": 0.04})
        r = Router(synthetic_definition([f16, bf16], kinds))
        self.assertEqual(r.route(1, 1000, 64, 64, "bfloat16")["config"], "k128_w2_p")
        self.assertEqual(r.route(1, 1000, 64, 64, "float16")["config"], "simt_w4")
        r = Router(synthetic_definition([f32], kinds))
        self.assertIn("default", r.route(1, 1000, 64, 64, "bfloat16")["basis"])

    def test_load_width_is_legality_outside_the_table(self):
        # tcd tiles in two widths. The neighbours have odd D, where only v = 1 is legal and
        # measured; an aligned query takes the tile's widest legal width (v = 8), judged by the
        # neighbours' v = 1 times, not the v = 1 build by name. An odd query takes v = 1. A
        # neighbour that measured only v = 8 stands for an odd query's v = 1 at 1.25x per halving:
        # tile A (2.0 at v = 8 -> 2.0 * 1.25^3 ~ 3.9) loses to tile B (3.0 at v = 1).
        def tcd(config, v, r):
            return {"name": f"t_{config}", "family": "tcd", "dtype": "float16", "max_d": None,
                    "d_align": 1, "staging": "none", "config": config, "constraints": [f"mod(D, {v}) == 0"],
                    "params": {"dtype": "float16", "r": r, "kn": 2, "v": v}}
        variants = [tcd("tcd_r1_n2_v1", 1, 1), tcd("tcd_r1_n2_v8", 8, 1), tcd("tcd_r2_n2_v1", 1, 2),
                    tcd("tcd_r2_n2_v8", 8, 2)]
        odd = [{"dtype": "float16", "B": 1, "N": n, "D": 15, "K": 16,
                "ms": {"tcd_r1_n2_v1": 0.010, "tcd_r2_n2_v1": 0.012}} for n in (1000, 1100)]
        r = Router({"op": "kmeans_assign", "variants": variants, "table": {"points": odd, "neighbours": 2}})
        self.assertEqual(r.route(1, 1050, 16, 16, "float16")["config"], "tcd_r1_n2_v8")
        self.assertEqual(r.route(1, 1050, 17, 16, "float16")["config"], "tcd_r1_n2_v1")
        aligned = [{"dtype": "float16", "B": 1, "N": n, "D": 16, "K": 16,
                    "ms": {"tcd_r1_n2_v8": 0.010, "tcd_r2_n2_v1": 0.015}} for n in (1000, 1100)]
        r = Router({"op": "kmeans_assign", "variants": variants, "table": {"points": aligned, "neighbours": 2}})
        self.assertEqual(r.route(1, 1050, 17, 16, "float16")["config"], "tcd_r2_n2_v1")
        self.assertEqual(r.route(1, 1050, 24, 16, "float16")["config"], "tcd_r1_n2_v8")

    def test_committed_table_routes_every_grid_shape(self):
        d = load_json(os.path.join(KMEANS, "variants.json"))
        d["table"] = load_json(os.path.join(KMEANS, "table.json"))
        r = Router(d)
        for s in load_json(os.path.join(KMEANS, "grid.json"))["shapes"]:
            route = r.route(s["B"], s["N"], s["D"], s["K"], s["dtype"])
            v = next(v for v in r.variants if v["name"] == route["kernel"])
            self.assertEqual(v["dtype"], s["dtype"])
            self.assertTrue(v["max_d"] is None or v["max_d"] >= s["D"])


class AutotuneTest(unittest.TestCase):
    """The router's candidates and the first-call autotuner (cake_library/autotune.py), with a
    fake timer: no GPU, no torch."""

    POINTS = [{"dtype": "float16", "B": 1, "N": 1000, "D": 64, "K": 40,
               "ms": {"simt_w4": 0.010, "k128_w2_p": 0.004, "k64_w1_t": 0.006, "sd1_k128_w2_p": 0.008}},
              {"dtype": "float16", "B": 1, "N": 4000, "D": 64, "K": 40,
               "ms": {"simt_w4": 0.030, "k128_w2_p": 0.012, "k64_w1_t": 0.011, "sd1_k128_w2_p": 0.020}}]

    def test_candidates_rank_like_the_router(self):
        r = Router(synthetic_definition(self.POINTS))
        shape = (1, 2000, 64, 40, "float16")                 # outside the table
        cands = r.candidates(*shape, 3)
        self.assertEqual(cands[0]["kernel"], r.route(*shape)["kernel"])
        self.assertEqual([c["config"] for c in cands],
                         [c for c, _ in r.ranking(*shape)][:3])
        legal = {v["name"] for v in r.legal(*shape)}
        self.assertTrue(all(c["kernel"] in legal for c in cands))
        variants = {v["name"]: v for v in r.variants}
        for c in cands:
            self.assertEqual(c["sizes"], launch_sizes(variants[c["kernel"]], 1, 2000, 64, 40))
        self.assertEqual(len(r.candidates(*shape, 1)), 1)
        self.assertEqual(len(r.candidates(*shape, 50)), 4)  # every measured legal configuration
        # A shape of the table is served by its own measurements: nothing to time.
        self.assertEqual([c["config"] for c in r.candidates(1, 1000, 64, 40, "float16", 4)], ["k128_w2_p"])
        with self.assertRaises(NoKernel):
            r.candidates(1, 1, 1, 1, "float32", 4)

    def tuner(self, count, times):
        from cake_library.autotune import Autotuner
        calls = []

        def timer(runs):
            for run in runs:
                run()
            return [times[name] for name in calls[-len(runs):]]
        tuner = Autotuner(Router(synthetic_definition(self.POINTS)).candidates, count, timer)
        return tuner, calls

    def test_first_call_keeps_the_fastest(self):
        key = (1, 2000, 64, 40, "float16", "cuda:0")
        tuner, calls = self.tuner(4, {"w_1_k128_w2_p": 3.0, "w_1_k64_w1_t": 1.0, "sd": 2.0, "simt": 9.0})
        launch = lambda r: calls.append(r["kernel"])           # noqa: E731
        pick = tuner.choose(key, launch, lambda: False)
        self.assertEqual(pick["kernel"], "w_1_k64_w1_t")
        self.assertEqual(sorted(calls), ["sd", "simt", "w_1_k128_w2_p", "w_1_k64_w1_t"])
        self.assertEqual(tuner.records[key]["w_1_k64_w1_t"], 1.0)
        # Later calls of the shape: the kept kernel, nothing timed again.
        self.assertIs(tuner.choose(key, launch, lambda: False), pick)
        self.assertEqual(len(calls), 4)

    def test_routed_kernel_fastest_or_nothing_to_time(self):
        tuner, calls = self.tuner(4, {"w_1_k128_w2_p": 1.0, "w_1_k64_w1_t": 1.0, "sd": 2.0, "simt": 9.0})
        launch = lambda r: calls.append(r["kernel"])           # noqa: E731
        first = Router(synthetic_definition(self.POINTS)).route(1, 2000, 64, 40, "float16")["kernel"]
        self.assertEqual(first, "w_1_k128_w2_p")
        # A tie keeps the routed (first) kernel: None means "route()'s kernel".
        self.assertIsNone(tuner.choose((1, 2000, 64, 40, "float16", 0), launch, lambda: False))
        # A shape of the table, a count of 1, an unserved shape: nothing is timed.
        n = len(calls)
        self.assertIsNone(tuner.choose((1, 1000, 64, 40, "float16", 0), launch, lambda: False))
        self.assertIsNone(tuner.choose((1, 1, 1, 1, "float32", 0), launch, lambda: False))
        off, off_calls = self.tuner(1, {})
        self.assertIsNone(off.choose((1, 2000, 64, 40, "float16", 0), launch, lambda: False))
        self.assertEqual((len(calls), off_calls), (n, []))

    def test_graph_timer_times_replays_per_launch(self):
        """graph_timer (autotune_noise.py's "graph" arm) on a fake torch whose GPU clock advances
        by each launch's cost: per-launch times from replays, inf for a run that raises on its
        first launch or during its capture, and nothing captured of the first launches."""
        from cake_library.autotune import graph_timer

        class Cuda:
            clock, capturing = 0.0, None

            class Event:
                def __init__(self, enable_timing=False):
                    self.t = None

                def record(self):
                    self.t = Cuda.clock

                def synchronize(self):
                    pass

                def elapsed_time(self, end):
                    return end.t - self.t

            class CUDAGraph:
                def __init__(self):
                    self.work, self.replays = [], 0

                def replay(self):
                    self.replays += 1
                    Cuda.clock += sum(self.work)

            class graph:
                def __init__(self, g):
                    self.g = g

                def __enter__(self):
                    Cuda.capturing = self.g

                def __exit__(self, *exc):
                    Cuda.capturing = None

        graphs = []
        Cuda.CUDAGraph.__init__ = (lambda old: lambda self: (old(self), graphs.append(self))[0])(
            Cuda.CUDAGraph.__init__)

        def launch(cost, fails=False, fails_captured=False):
            def run():
                if fails or (fails_captured and Cuda.capturing):
                    raise RuntimeError("no")
                if Cuda.capturing:
                    Cuda.capturing.work.append(cost)
                else:
                    Cuda.clock += cost
            return run

        torch = type("torch", (), {"cuda": Cuda})
        runs = [launch(2.0), launch(1.0), launch(5.0, fails=True), launch(3.0, fails_captured=True)]
        times = graph_timer(torch, rounds=3, launches=4)(runs)
        self.assertEqual(times[:2], [2.0, 1.0])
        self.assertEqual(times[2:], [math.inf, math.inf])
        self.assertEqual([len(g.work) for g in graphs], [4, 4, 0])   # the failed capture: none kept
        self.assertEqual([g.replays for g in graphs[:2]], [4, 4])   # a warm replay, then 3 rounds
        # With a fallback (the autotuner's default: torch_timer), a failed capture hands every
        # run to it, so that one timer ranks them all.
        fallback = graph_timer(torch, fallback=lambda rs: [7.0] * len(rs))
        self.assertEqual(fallback(runs), [7.0] * 4)
        self.assertEqual(fallback(runs[:2]), [2.0, 1.0])

    def test_nothing_timed_while_capturing_nor_kept(self):
        tuner, calls = self.tuner(4, {"w_1_k128_w2_p": 3.0, "w_1_k64_w1_t": 1.0, "sd": 2.0, "simt": 9.0})
        launch = lambda r: calls.append(r["kernel"])           # noqa: E731
        key = (1, 2000, 64, 40, "float16", 0)
        self.assertIsNone(tuner.choose(key, launch, lambda: True))
        self.assertEqual(calls, [])
        self.assertEqual(tuner.choose(key, launch, lambda: False)["kernel"], "w_1_k64_w1_t")

    def test_every_candidate_failing_keeps_the_route(self):
        tuner, calls = self.tuner(4, {"w_1_k128_w2_p": float("inf"), "w_1_k64_w1_t": float("inf"),
                                      "sd": float("inf"), "simt": float("inf")})
        key = (1, 2000, 64, 40, "float16", 0)
        self.assertIsNone(tuner.choose(key, lambda r: calls.append(r["kernel"]), lambda: False))
        self.assertNotIn(key, tuner.records)

    def test_store_keeps_choices_across_processes(self):
        from cake_library.autotune import Autotuner, TuneStore
        times = {"w_1_k128_w2_p": 3.0, "w_1_k64_w1_t": 1.0, "sd": 2.0, "simt": 9.0}
        shape = (1, 2000, 64, 40, "float16")

        def tuned(store, gpu, kernel_times=times):
            """The kernel a fresh tuner (another process) keeps for the shape."""
            tuner, calls = self.tuner(4, kernel_times)
            tuner.store, tuner.gpu = store, (lambda device: gpu)
            return tuner.choose(shape + (0,), lambda r: calls.append(r["kernel"]), lambda: False)["kernel"]

        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "tune.json")
            self.assertEqual(tuned(TuneStore(path, "lib1"), "H100"), "w_1_k64_w1_t")
            self.assertEqual(load_json(path), {"lib1|H100": {"1,2000,64,40,float16": "w_1_k64_w1_t"}})

            def no_timing(runs):
                raise AssertionError("timed again")
            # Another process, the same GPU model and library: no timing.
            again = Autotuner(Router(synthetic_definition(self.POINTS)).candidates, 4, no_timing,
                              TuneStore(path, "lib1"), lambda device: "H100")
            self.assertEqual(again.choose(shape + (1,), lambda r: None, lambda: False)["kernel"],
                             "w_1_k64_w1_t")
            self.assertEqual(again.records, {})
            # Another GPU model or another library: timed, and kept beside the first entry.
            self.assertEqual(tuned(TuneStore(path, "lib1"), "H200", dict(times, sd=0.5)), "sd")
            self.assertEqual(tuned(TuneStore(path, "lib2"), "H100", dict(times, sd=0.5)), "sd")
            self.assertEqual(sorted(load_json(path)), ["lib1|H100", "lib1|H200", "lib2|H100"])
            # A kept kernel that is no longer a candidate is timed again; so is a shape whose
            # file is unreadable (a warning, not an error), and the file is written whole again.
            with open(path, "w") as f:
                json.dump({"lib1|H100": {"1,2000,64,40,float16": "gone"}}, f)
            self.assertEqual(tuned(TuneStore(path, "lib1"), "H100"), "w_1_k64_w1_t")
            with open(path, "w") as f:
                f.write("{not json")
            with self.assertWarnsRegex(UserWarning, "not read"):
                self.assertEqual(tuned(TuneStore(path, "lib1"), "H100"), "w_1_k64_w1_t")
            self.assertEqual(load_json(path), {"lib1|H100": {"1,2000,64,40,float16": "w_1_k64_w1_t"}})

    def test_environment_count(self):
        from cake_library import autotune
        old = os.environ.get("CAKE_AUTOTUNE")
        try:
            for text, want in (("", autotune.DEFAULT_CANDIDATES), ("0", 0), ("1", 1), ("6", 6)):
                os.environ["CAKE_AUTOTUNE"] = text
                self.assertEqual(autotune.candidates_from_env(), want)
            for bad in ("-1", "four", "2.5"):
                os.environ["CAKE_AUTOTUNE"] = bad
                with self.assertRaisesRegex(ValueError, "CAKE_AUTOTUNE"):
                    autotune.candidates_from_env()
        finally:
            if old is None:
                os.environ.pop("CAKE_AUTOTUNE", None)
            else:
                os.environ["CAKE_AUTOTUNE"] = old


class UpdateChoiceTest(unittest.TestCase):
    """The centroid update is privatized where many points share a centroid (lloyd-0.* of
    bench/results/2026-12-02-library-kmeans-6) and its partial sums fit in shared memory, in
    chunks that leave enough blocks (bench/results/2026-12-08-update-chunks)."""

    def test_private_chunk(self):
        from cake_library.kmeans import private_chunk
        self.assertEqual(private_chunk(7, 156830, 2, 216), 256)     # 548915 points per centroid
        self.assertEqual(private_chunk(1, 1000, 1, 8192), 32)       # exactly 1000, K*D = 8192; 4 blocks
        self.assertEqual(private_chunk(1, 67329, 1, 8), 256)        # 264 blocks at 256
        self.assertEqual(private_chunk(1, 67328, 1, 8), 64)         # 263 blocks at 256, 1052 at 64
        self.assertEqual(private_chunk(4, 8445, 1, 144), 64)        # 132 at 256, 528 at 64 (call U: c64)
        self.assertEqual(private_chunk(7, 469, 1, 374), 32)         # 14 at 256, 56 at 64 (call U: c32)
        self.assertEqual(private_chunk(1, 32705, 1, 8), 64)         # 512 blocks at 64
        self.assertEqual(private_chunk(1, 32704, 1, 8), 32)         # 511
        self.assertIsNone(private_chunk(1, 999, 1, 64))             # below 1000 per centroid
        self.assertIsNone(private_chunk(1, 10 ** 6, 2, 4097))       # K*D over shared memory
        self.assertIsNone(private_chunk(1, 10 ** 7, 1025, 4))       # more counts than it keeps


class HelperEntryTest(unittest.TestCase):
    """The dispatcher's generator refuses a library whose split-K variants have no finish kernel,
    or a finish kernel whose parameters are not (best, idx, BN), naming what is wrong; it lists
    the |c|^2 kernels of a dtype narrowest first."""

    def test_finish_entry(self):
        sys.path.insert(0, os.path.join(RUNTIME, "dispatch"))
        import generate
        split = {"name": "km_x_ks1", "manifest": {"params": [{"name": "best", "kind": "tensor"}]}}
        plain = {"name": "km_x", "manifest": {"params": [{"name": "idx", "kind": "tensor"}]}}
        finish = {"name": "km_best_finish", "manifest": {
            "block": [256, 1, 1], "grid": ["ceildiv(BN, 256)", "1", "1"], "programmatic_launch": True,
            "params": [{"name": n} for n in ("best", "idx", "BN")]}}
        self.assertEqual(generate.finish_entry({"variants": [plain]}), "{nullptr, 0, 0, false}")
        with self.assertRaisesRegex(ValueError, "split-K variants but no finish kernel"):
            generate.finish_entry({"variants": [plain, split]})
        self.assertEqual(generate.finish_entry({"variants": [split], "finish_variants": [finish]}),
                         '{"km_best_finish", 256, 256, true}')
        swapped = json.loads(json.dumps(finish))
        swapped["manifest"]["params"].reverse()
        with self.assertRaisesRegex(ValueError, "finish kernel parameters"):
            generate.finish_entry({"variants": [split], "finish_variants": [swapped]})


    def test_csq_entries(self):
        """|c|^2 kernels per dtype: narrowest max D first, one serving every D (an older library's
        single entry without max_d serves every D); none, or none for every D, is refused."""
        sys.path.insert(0, os.path.join(RUNTIME, "dispatch"))
        import generate

        def csq(name, max_d="absent", rows=256):
            v = {"name": name, "dtype": "float16", "manifest": {
                "block": [256, 1, 1], "grid": [f"ceildiv(R, {rows})", "1", "1"],
                "params": [{"name": n} for n in ("c", "q", "R", "D")]}}
            if max_d != "absent":
                v["max_d"] = max_d
            return v
        lib = {"csq_variants": [csq("w", None, 8), csq("l1", 16), csq("l4", 64, 64)]}
        self.assertEqual(generate.csq_entries(lib, "float16"),
                         ['{16, {"l1", 256, 256, false}}', '{64, {"l4", 256, 64, false}}',
                          '{-1, {"w", 256, 8, false}}'])
        self.assertEqual(generate.csq_entries(lib, "bfloat16"), [])
        self.assertEqual(generate.csq_entries({"csq_variants": [csq("old", rows=8)]}, "float16"),
                         ['{-1, {"old", 256, 8, false}}'])
        with self.assertRaisesRegex(ValueError, "none serves every D"):
            generate.csq_entries({"csq_variants": [csq("l1", 16)]}, "float16")
        with self.assertRaisesRegex(ValueError, "more than one serves every D"):
            generate.csq_entries({"csq_variants": [csq("a", None), csq("b")]}, "float16")

class MergeTuneTest(unittest.TestCase):
    """bench/library/merge_tune.py: a family or configurations tuned later merge into the table."""

    def test_union_per_shape(self):
        shape = {"dtype": "float16", "B": 1, "N": 10, "D": 8, "K": 3}
        other = dict(shape, N=20)
        with tempfile.TemporaryDirectory() as tmp:
            first, second, out = (os.path.join(tmp, n) for n in ("a.json", "b.json", "t.json"))
            with open(first, "w") as f:
                json.dump({"points": [dict(shape, ms={"simt_w4": 3.0, "k128_w2_p": 1.0}),
                                      dict(other, ms={"simt_w4": 5.0})], "neighbours": 4}, f)
            with open(second, "w") as f:     # simt re-measured, a new configuration added
                json.dump({"points": [dict(shape, ms={"simt_w4": 2.0, "k16_w2_p": 0.5},
                                           failed={"k32_w2_p": "wrong"})], "neighbours": 4}, f)
            def merge(*extra):
                r = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "library", "merge_tune.py"),
                                    "--out", out, *extra, first, second], capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, r.stderr)
                return {p["N"]: p for p in load_json(out)["points"]}
            # simt re-timed at 2/3 of its old time (another card): k128's older time follows it.
            points = merge()
            self.assertEqual(set(points[10]["ms"]), {"simt_w4", "k128_w2_p", "k16_w2_p"})
            self.assertEqual(points[10]["ms"]["simt_w4"], 2.0)
            self.assertAlmostEqual(points[10]["ms"]["k128_w2_p"], 2.0 / 3.0)
            self.assertEqual(points[10]["ms"]["k16_w2_p"], 0.5)
            self.assertEqual(points[10]["failed"], {"k32_w2_p": "wrong"})
            self.assertEqual(points[20]["ms"], {"simt_w4": 5.0})      # nothing re-timed: as it was
            points = merge("--no-rescale")
            self.assertEqual(points[10]["ms"], {"simt_w4": 2.0, "k128_w2_p": 1.0, "k16_w2_p": 0.5})


class RetimeListTest(unittest.TestCase):
    """bench/library/retime_list.py: each point's fastest configurations, newer times winning."""

    def run_tool(self, *args):
        return subprocess.run([sys.executable, os.path.join(ROOT, "bench", "library", "retime_list.py"),
                               *args], capture_output=True, text=True)

    def test_top_within_and_newer_times(self):
        shape = {"dtype": "float16", "B": 1, "N": 10, "D": 8, "K": 3}
        with tempfile.TemporaryDirectory() as tmp:
            table, newer, out = (os.path.join(tmp, n) for n in ("t.json", "n.json", "o.json"))
            with open(table, "w") as f:
                json.dump({"points": [dict(shape, ms={"a": 1.0, "b": 1.2, "c": 1.25, "d": 2.0})]}, f)
            with open(newer, "w") as f:        # d re-timed: now within 1.3x of the best
                json.dump({"points": [dict(shape, ms={"d": 1.1})]}, f)
            r = self.run_tool("--table", table, "--also", newer, "--top", "3", "--out", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(load_json(out), [dict(shape, configs=["a", "d", "b"])])

    def test_bad_input_is_a_message(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "o.json")
            r = self.run_tool("--table", os.path.join(tmp, "missing.json"), "--out", out)
            self.assertEqual(r.returncode, 1)
            self.assertIn("retime_list.py: FileNotFoundError", r.stderr)
            self.assertNotIn("Traceback", r.stderr)
            r = self.run_tool("--table", os.path.join(KMEANS, "table.json"), "--top", "0", "--out", out)
            self.assertEqual(r.returncode, 1)
            self.assertIn("--top must be >= 1", r.stderr)


class CommandTest(unittest.TestCase):
    def test_route_command(self):
        r = cake("library", "route", "--library", KMEANS, "--shape", "B=3,N=75599,D=96,K=999,dtype=float16")
        self.assertEqual(r.returncode, 0, r.stderr)
        out = json.loads(r.stdout)
        self.assertTrue(out["kernel"].startswith("km_f16_"))
        self.assertEqual(out["sizes"]["KP"], 1000)
        for bad, why in (("B=3,N=0,D=9,K=9,dtype=float16", "N = 0"),
                         ("B=3,N=5,D=9,K=9,dtype=int8", "dtype 'int8'"),
                         ("B=3,N=5,D=9,dtype=float16", "missing K"),
                         ("B=3,N=5,D=x,K=9,dtype=float16", "not an integer"),
                         ("B=3,N=5,D=9,K=9,Q=1,dtype=float16", "unknown name 'Q'")):
            r = cake("library", "route", "--library", KMEANS, "--shape", bad)
            self.assertEqual(r.returncode, 2, bad)
            self.assertIn(why, r.stderr)
        r = cake("library", "route", "--library", tempfile.gettempdir(), "--shape", "B=1,N=1,D=1,K=1,dtype=float16")
        self.assertEqual(r.returncode, 2)
        self.assertIn("not a library", r.stderr)

    def test_route_refuses_a_broken_library(self):
        good = {"name": "a", "family": "simt", "dtype": "float16", "max_d": None, "d_align": 1,
                "staging": "none", "config": "simt_w4", "constraints": ["N >= 1"]}

        def library(variant=None, table=None, **change):
            return json.dumps({"op": "kmeans_assign", "variants": [dict(variant or good, **change)],
                               "table": table or {"points": []}})

        point = {"dtype": "float16", "B": 1, "N": 1, "D": 1, "K": 1, "ms": {"simt_w4": 0.1}}
        with tempfile.TemporaryDirectory() as tmp:
            for text, why in (("{}", "not a KMeans assignment library"),
                              ('{"op": "kmeans_assign"}', "lists no variants"),
                              ('{"op": "kmeans_assign", "variants": [{"name": "a"}]}',
                               "variant 0: missing family"),
                              (library(table={"points": [{}]}), "table point 0: missing dtype"),
                              (library(staging="padded"),
                               "variant 0: staging 'padded', expected one of none, rows, rows+csq"),
                              (library(name=1), "variant 0: name 1 is not a name"),
                              (library(d_align=0), "variant 0: d_align 0, expected an integer >= 1"),
                              (library(max_d="big"), "variant 0: max_d 'big'"),
                              (library(constraints=["D <"]), "constraint 'D <': cannot parse"),
                              (library(constraints="D > 1"), "constraints is not a list"),
                              (library(table={"points": [dict(point, ms={})]}), "table point 0: ms is not"),
                              (library(table={"points": [dict(point, ms={"simt_w4": 0})]}), "table point 0: ms"),
                              (library(table={"points": [dict(point, ms=[1])]}), "table point 0: ms"),
                              (library(table={"points": [dict(point, K=0)]}), "table point 0: K 0"),
                              (library(table={"points": [point], "neighbours": "x"}), "neighbours 'x'"),
                              (library(config="other"), "no default kernel (k128_w2_p, simt_w4) serves it"),
                              ("[1]", "not a KMeans assignment library"),
                              ("garbage", "Expecting value")):
                with open(os.path.join(tmp, "library.json"), "w") as f:
                    f.write(text)
                r = cake("library", "route", "--library", tmp, "--shape", "B=1,N=1,D=1,K=1,dtype=float16")
                self.assertEqual(r.returncode, 2, text)
                self.assertIn(why, r.stderr)
                self.assertNotIn("Traceback", r.stderr)
            with open(os.path.join(tmp, "library.json"), "w") as f:
                f.write(library())
            r = cake("library", "route", "--library", tmp, "--shape", "B=1,N=1,D=1,K=1,dtype=float16")
            self.assertEqual(r.returncode, 0, r.stderr)
            os.remove(os.path.join(tmp, "library.json"))
            # A definition folder: a fault of its table is blamed on table.json.
            with open(os.path.join(tmp, "variants.json"), "w") as f:
                f.write(library())
            with open(os.path.join(tmp, "table.json"), "w") as f:
                json.dump({"points": [dict(point, ms={})]}, f)
            r = cake("library", "route", "--library", tmp, "--shape", "B=1,N=1,D=1,K=1,dtype=float16")
            self.assertEqual(r.returncode, 2)
            self.assertIn("table.json: table point 0", r.stderr)

    def test_route_refuses_what_no_kernel_can_address(self):
        for shape, why in (("B=9223372036854775808,N=1,D=1,K=1", "x would hold 9223372036854775808 elements"),
                           ("B=1,N=9223372036854775807,D=3,K=5", "x would hold"),
                           ("B=2,N=3,D=4611686018427387904,K=5", "x would hold"),
                           ("B=1,N=3,D=2,K=4611686018427387904", "c would hold"),
                           ("B=1_0,N=1,D=1,K=1", "B = '1_0' is not an integer"),
                           ("B= 7,N=1,D=1,K=1", "B = ' 7' is not an integer")):
            r = cake("library", "route", "--library", KMEANS, "--shape", shape + ",dtype=float32")
            self.assertEqual(r.returncode, 2, shape)
            self.assertIn(why, r.stderr)
        r = cake("library", "route", "--library", KMEANS, "--shape", "B=+4,N=1,D=1,K=1,dtype=float32")
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_report(self):
        rows = [{"B": 1, "N": 10, "D": 8, "K": 4, "dtype": "float16", "kernel": "a", "cake_ms": 0.01,
                 "flashlib_ms": 0.02, "flash_kmeans_ms": 0.01, "correct": True, "tuned": True},
                {"B": 2, "N": 10, "D": 800, "K": 4000, "dtype": "float32", "kernel": "b", "cake_ms": 1.0,
                 "flashlib_ms": 0.5, "flash_kmeans_ms": 0.5, "correct": True, "tuned": False,
                 # a row the first-call autotuner moved (kmeans_bench's final): extra fields
                 "routed_kernel": "c", "cake_static_ms": 1.5, "autotune_times": {"b": 1.0, "c": 1.5}}]
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "rows.json"), "w") as f:
                json.dump(rows, f)
            out = os.path.join(tmp, "r.html")
            r = cake("library", "report", "--rows", os.path.join(tmp, "rows.json"), "--out", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out) as f:
                page = f.read()
            # geomean(2.0, 0.5) = 1.0 against flashlib; min 0.5; flash-kmeans geomean(1.0, 0.5).
            self.assertIn("<td>all</td><td>2</td><td>2</td><td>1.00</td><td>0.50</td><td>0.71</td>", page)
            self.assertIn("<td class='bad'>0.50 (1)<br><small>b</small></td>", page)
            self.assertIn("<td>held-out</td><td>1</td>", page)
            # Static routing: the moved row at its routed kernel's time (0.5 / 1.5), the other as is.
            self.assertIn("<td>held-out, static routing</td><td>1</td><td>1</td><td>0.33</td>", page)
            self.assertIn("<td>all, static routing</td><td>2</td><td>2</td><td>0.82</td>", page)
            with open(os.path.join(tmp, "bad.json"), "w") as f:
                f.write("{}")
            self.assertEqual(cake("library", "report", "--rows", os.path.join(tmp, "bad.json")).returncode, 2)
            rows_file = os.path.join(tmp, "rows.json")
            for out, why in ((rows_file, "is also the input"), (tmp, "is a folder"), ("", "empty path"),
                             (os.path.join(tmp, "no", "r.html"), "no folder")):
                r = cake("library", "report", "--rows", rows_file, "--out", out)
                self.assertEqual(r.returncode, 2, out)
                self.assertIn(why, r.stderr)
            self.assertEqual(load_json(rows_file), rows)
            for change, why in (({"D": None}, "row 1: D missing"), ({"cake_ms": "fast"}, "row 1: cake_ms"),
                                ({"flashlib_ms": 0}, "row 1: flashlib_ms")):
                with open(os.path.join(tmp, "bad.json"), "w") as f:
                    json.dump([rows[0], dict(rows[1], **change)], f)
                r = cake("library", "report", "--rows", os.path.join(tmp, "bad.json"), "--out", out)
                self.assertEqual(r.returncode, 2, change)
                self.assertIn(why, r.stderr)
                self.assertNotIn("Traceback", r.stderr)

    def test_export_is_self_contained(self):
        with tempfile.TemporaryDirectory() as tmp:
            built = os.path.join(tmp, "built")
            os.makedirs(os.path.join(built, "kernels"))
            d = load_json(os.path.join(KMEANS, "variants.json"))
            d["table"] = load_json(os.path.join(KMEANS, "table.json"))
            with open(os.path.join(built, "library.json"), "w") as f:
                json.dump(d, f)
            r = cake("library", "export", "--library", built, "--out", os.path.join(tmp, "pkg"))
            self.assertEqual(r.returncode, 2)
            self.assertIn("no cubin", r.stderr)
            for v in d["variants"]:
                open(os.path.join(built, "kernels", v["name"] + ".cubin"), "wb").close()
            r = cake("library", "export", "--library", built, "--out", os.path.join(tmp, "pkg"))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(cake("library", "export", "--library", built, "--out",
                                  os.path.join(tmp, "pkg")).returncode, 2)    # not empty
            for out, why in (("", "empty path"), (os.path.join(built, "library.json"), "is a file")):
                r = cake("library", "export", "--library", built, "--out", out)
                self.assertEqual(r.returncode, 2, out)
                self.assertIn(why, r.stderr)
            # A failed export leaves nothing: no folder, no partial files beside it.
            broken = os.path.join(tmp, "broken")
            shutil.copytree(built, broken)
            b = load_json(os.path.join(broken, "library.json"))
            for v in b["variants"]:
                v["manifest"] = {}       # the dispatcher's generator finds nothing it needs
            with open(os.path.join(broken, "library.json"), "w") as f:
                json.dump(b, f)
            r = cake("library", "export", "--library", broken, "--out", os.path.join(tmp, "pkg2"))
            self.assertEqual(r.returncode, 2)
            self.assertIn("cannot generate the dispatcher's table", r.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), ["broken", "built", "pkg"])
            # The package routes alone: no repository on the path, the same answer as the definition.
            code = ("import cake_library, json; print(json.dumps(cake_library.route(3, 75599, 96, 999, "
                    "'float16')))")
            r = subprocess.run([sys.executable, "-c", code], cwd=tmp, capture_output=True, text=True,
                               env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": os.path.join(tmp, "pkg")})
            self.assertEqual(r.returncode, 0, r.stderr)
            ours = cake("library", "route", "--library", KMEANS, "--shape", "B=3,N=75599,D=96,K=999,dtype=float16")
            self.assertEqual(json.loads(r.stdout)["kernel"], json.loads(ours.stdout)["kernel"])
            self.assertFalse(os.path.islink(os.path.join(tmp, "pkg", "cake_library", "expr.py")))
            r = cake("library", "route", "--library", os.path.join(tmp, "pkg"), "--shape",
                     "B=3,N=75599,D=96,K=999,dtype=float16")
            self.assertEqual(json.loads(r.stdout)["kernel"], json.loads(ours.stdout)["kernel"])


have_cuda_headers = util.have_cuda_headers


class NativeDispatcherTest(unittest.TestCase):
    """The generated C++ dispatcher routes exactly as route.py (CPU only: no driver is loaded)."""

    MANIFESTS = {}   # variant name -> its manifest, shared by the tests of this process

    def export_subset(self, tmp, dtype="bfloat16", max_chunks=2, pads=False):
        """A library of `dtype`'s variants up to `max_chunks` (manifests from cake-translate,
        empty cubins), exported with its dispatcher: (package folder, variants, table); with
        `pads`, the library has its staging kernel (pad_variants); it always has its |c|^2 kernels
        (csq_variants)."""
        built = os.path.join(tmp, "built")
        os.makedirs(os.path.join(built, "kernels"))
        aux = family.FAMILIES
        built_kernels = []
        for p in kbuild.with_twins(kbuild.plan([dtype], max_chunks) + aux["finish"].plan([dtype]) +
                                   aux["csq"].plan([dtype]) + (aux["pad"].plan([dtype]) if pads else [])):
            name = kbuild.variant_name(p)
            manifest = self.MANIFESTS.get(name)
            if manifest is None:       # the IR as build.py compiles it: a cake-opt and a
                src = os.path.join(built, "kernels", name + ".mlir")   # cake-translate call each
                with open(src, "w") as f:
                    f.write(kbuild.kernel_ir(p, BIN))
                r = subprocess.run([os.path.join(BIN, "cake-translate"), src, "--emit=manifest"],
                                   capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, r.stderr)
                manifest = self.MANIFESTS[name] = json.loads(r.stdout)["kernels"][0]
            built_kernels.append((p, manifest))
            open(os.path.join(built, "kernels", name + ".cubin"), "wb").close()
        variants, lists = kbuild.library_entries(built_kernels)     # as build.py writes them
        table = load_json(os.path.join(KMEANS, "table.json"))
        with open(os.path.join(built, "library.json"), "w") as f:
            json.dump({"op": "kmeans_assign", "variants": variants, "table": table, **lists}, f)
        pkg = os.path.join(tmp, "pkg")
        r = cake("library", "export", "--library", built, "--out", pkg)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.isfile(os.path.join(pkg, "cake_library", "library", "libcake_library.so")),
                        r.stdout)
        return pkg, variants, table

    @needs_tools
    def test_generated_dispatcher_routes_as_python(self):
        if not have_cuda_headers():
            self.skipTest("no cuda.h (CUDA_HOME): the dispatcher cannot be compiled here")
        import ctypes
        import random
        with tempfile.TemporaryDirectory() as tmp:
            pkg, variants, table = self.export_subset(tmp)
            so = os.path.join(pkg, "cake_library", "library", "libcake_library.so")
            lib = ctypes.CDLL(so)
            lib.cake_library_route.argtypes = [ctypes.c_int64] * 4 + [ctypes.c_int, ctypes.POINTER(ctypes.c_int64)]
            lib.cake_library_variant.restype = ctypes.c_char_p
            lib.cake_library_error.restype = ctypes.c_char_p
            router = Router({"op": "kmeans_assign", "variants": variants, "table": table})
            rng = random.Random(3)
            shapes = [(s["B"], s["N"], s["D"], s["K"]) for s in load_json(os.path.join(KMEANS, "grid.json"))["shapes"]]
            shapes += [(rng.randint(1, 9), int(2 ** rng.uniform(0, 18)), int(2 ** rng.uniform(0, 12)),
                        int(2 ** rng.uniform(0, 13))) for _ in range(300)]
            native = Native(so, os.path.join(pkg, "cake_library", "library", "kernels"))
            for B, N, D, K in shapes:
                sizes = (ctypes.c_int64 * 8)()
                i = lib.cake_library_route(B, N, D, K, 1, sizes)
                want = router.route(B, N, D, K, "bfloat16")
                self.assertGreaterEqual(i, 0, lib.cake_library_error())
                self.assertEqual(lib.cake_library_variant(i).decode(), want["kernel"], (B, N, D, K))
                self.assertEqual(list(sizes), [want["sizes"].get(k, 0) for k in ("B", "N", "K", "D", "KP", "BKP", "BND", "BKD")])
                # The autotuner's candidates: the same kernels in the same order.
                self.assertEqual([c["kernel"] for c in native.candidates(B, N, D, K, "bfloat16", 4)],
                                 [c["kernel"] for c in router.candidates(B, N, D, K, "bfloat16", 4)], (B, N, D, K))
            with self.assertRaisesRegex(NoKernel, "float16"):
                native.candidates(1, 1, 1, 1, "float16", 4)
            lib.cake_library_kmeans_assign.argtypes = [ctypes.c_uint64] * 4 + [ctypes.c_int64] * 4 + [
                ctypes.c_int, ctypes.c_void_p]
            self.assertEqual(lib.cake_library_kmeans_assign(16, 0, 16, 16, 1, 1, 8, 1, 1, None), -1)
            self.assertIn(b"null device pointer for c", lib.cake_library_error())
            # csq = 0 only where the library computes |c|^2 (bfloat16 here: its csq kernel).
            self.assertEqual([native.computes_csq(d) for d in ("float16", "bfloat16", "float32")],
                             [False, True, False])
            self.assertEqual(lib.cake_library_kmeans_assign(16, 16, 0, 16, 1, 1, 8, 1, 0, None), -1)
            self.assertIn(b"null device pointer for csq", lib.cake_library_error())
            sizes = (ctypes.c_int64 * 8)()
            self.assertEqual(lib.cake_library_route(1, 1, 1, 1, 0, sizes), -1)    # no float16 here
            self.assertIn(b"float16", lib.cake_library_error())
            self.assertEqual(lib.cake_library_route(1, 0, 1, 1, 1, sizes), -1)
            self.assertIn(b"N=0", lib.cake_library_error())
            for B, N, D, K in ((2 ** 62, 2, 96, 999), (1, 2 ** 40, 2 ** 40, 2 ** 40), (2, 3, 5, 2 ** 62)):
                self.assertEqual(lib.cake_library_route(B, N, D, K, 1, sizes), -1)   # both refuse
                self.assertIn(b"(2^62)", lib.cake_library_error())
                with self.assertRaisesRegex(ValueError, "2\\^62"):
                    router.route(B, N, D, K, "bfloat16")

    @needs_tools
    def test_launch_path_against_a_fake_driver(self):
        """Staging, tensor maps, grid and parameters of real launches, checked against the
        manifests, with a libcuda.so.1 that records the calls instead of running them: with the
        library's staging kernel, and without one (2-D copies into per-shape workspaces)."""
        if not have_cuda_headers() or not shutil.which("cc"):
            self.skipTest("no cuda.h or no C compiler")
        for pads in (True, False):
            with self.subTest(staging_kernel=pads), tempfile.TemporaryDirectory() as tmp:
                self.check_launch_path(tmp, pads)

    def test_forced_variant_against_a_fake_driver(self):
        """Tuning forces a variant through the same C++ path: a legal one launches (with its
        staging), one that does not serve the shape launches nothing and says why."""
        with tempfile.TemporaryDirectory() as tmp:
            pkg, variants, fake, router = self.fake_package(tmp)
            B, N, D, K = 2, 700, 61, 97
            routed = router.route(B, N, D, K, "bfloat16")["kernel"]
            others = [v for v in router.legal(B, N, D, K, "bfloat16") if v["name"] != routed]
            self.assertTrue(others)
            v = others[0]
            env = {"FAKE_CUDA_PARAMS_" + v["name"]: str(len(v["manifest"]["params"])),
                   "FAKE_CUDA_PARAMS_km_bf16_pad": "13", "FAKE_CUDA_PARAMS_km_bf16_pad_i32": "13"}
            rc, error, calls = self.run_fake(tmp, pkg, fake, (B, N, D, K), env, variant=v["name"])
            self.assertEqual(rc, 0, error)
            launched = [c["name"] for c in calls if c["call"] == "cuLaunchKernel"]
            self.assertEqual(launched[-1], v["name"])
            self.assertEqual(launched[:-1], ["km_bf16_pad_i32"] if v["staging"] != "none" else [])
            # A variant of a narrower D class: refused before any driver call.
            wrong = next(x for x in variants if x["max_d"] is not None and x["max_d"] < D)
            rc, error, calls = self.run_fake(tmp, pkg, fake, (B, N, D, K), {}, variant=wrong["name"])
            self.assertEqual(rc, -1)
            self.assertIn(f"{wrong['name']} does not serve B=2 N=700 D=61 K=97 dtype=bfloat16", error)
            self.assertFalse([c for c in calls if c["call"] == "cuLaunchKernel"])
            rc, error, _ = self.run_fake(tmp, pkg, fake, (B, N, D, K), {}, variant="no_such_kernel")
            self.assertEqual((rc, error), (-1, "variant -1: no such variant"))
            # A variant that reads x as it is, with vector loads (tcd, 16-byte loads: D % 8 == 0),
            # given an x whose base is not 16-byte aligned: x is copied (same D) and the kernel
            # reads the copy; c, aligned, is passed as it is.
            D = 64
            v = next(v for v in router.legal(B, N, D, K, "bfloat16") if v["name"].endswith("_v8"))
            self.assertEqual(v["staging"], "none")
            env = {"FAKE_CUDA_PARAMS_" + v["name"]: str(len(v["manifest"]["params"])),
                   "FAKE_CUDA_PARAMS_km_bf16_pad": "13", "FAKE_CUDA_PARAMS_km_bf16_pad_i32": "13"}
            rc, error, calls = self.run_fake(tmp, pkg, fake, (B, N, D, K), env, variant=v["name"],
                                             x=self.X + 2)
            self.assertEqual(rc, 0, error)
            pad, launch = [c for c in calls if c["call"] == "cuLaunchKernel"]
            self.assertEqual(pad["name"], "km_bf16_pad_i32")
            self.assertEqual(pad["params"][0], self.X + 2)
            self.assertEqual(pad["params"][6:10], [B * N, 0, D, D])
            self.assertEqual(launch["name"], v["name"])
            self.assertEqual(launch["params"][:2], [pad["params"][1], self.C])

    def test_a_call_without_csq_computes_it_first(self):
        """csq = 0: the dispatcher runs the dtype's |c|^2 kernel (c, a workspace of B * K floats,
        R = B * K, D) and the variant reads that workspace as csq, directly or through the
        staging kernel; the workspace is kept per shape (a second call launches the same)."""
        with tempfile.TemporaryDirectory() as tmp:
            pkg, variants, fake, router = self.fake_package(tmp)
            # The narrowest |c|^2 kernel that serves D: 1 lane per row up to D = 16, 4 up to
            # 64, a warp above (32 / lanes rows per warp, 8 warps per block).
            for B, N, D, K, lanes in ((2, 5000, 64, 1001, 4), (3, 700, 61, 97, 4), (1, 9, 128, 7, 32),
                                      (2, 300, 3, 5000, 1), (1, 40, 17, 9, 4), (1, 40, 65, 9, 32)):
                want = router.route(B, N, D, K, "bfloat16")
                v = next(v for v in variants if v["name"] == want["kernel"])
                env = {"FAKE_CUDA_PARAMS_" + v["name"]: str(len(v["manifest"]["params"])),
                       "FAKE_CUDA_PARAMS_km_best_finish": "3",
                       "FAKE_CUDA_PARAMS_km_bf16_pad": "13", "FAKE_CUDA_PARAMS_km_bf16_pad_i32": "13",
                       **{"FAKE_CUDA_PARAMS_km_bf16_csq" + s: "4" for s in ("", "_l1", "_l4")}}
                rc, error, calls = self.run_fake(tmp, pkg, fake, (B, N, D, K), env, csq=0)
                self.assertEqual(rc, 0, error)
                launches = [c for c in calls if c["call"] == "cuLaunchKernel"]
                csq = launches[0]
                self.assertEqual(csq["name"], "km_bf16_csq" + ("" if lanes == 32 else f"_l{lanes}"), (D, lanes))
                ws = csq["params"][1]
                self.assertEqual(csq["params"], [self.C, ws, B * K, D])
                self.assertEqual(csq["grid"], [-(-B * K // (8 * 32 // lanes)), 1, 1])
                self.assertIn({"call": "cuMemAlloc", "bytes": B * K * 4, "ptr": ws},
                              [{k: c.get(k) for k in ("call", "bytes", "ptr")} for c in calls])
                main = next(c for c in launches if c["name"] == v["name"])
                names = [p["name"] for p in v["manifest"]["params"]]
                staged = [c for c in launches if c["name"].startswith("km_bf16_pad")]
                if staged and staged[0]["params"][4]:       # copied at pitch KP by the staging kernel
                    self.assertEqual(staged[0]["params"][4], ws)
                else:                                        # read where the |c|^2 kernel wrote it
                    self.assertEqual(main["params"][names.index("csq")], ws)

    def test_cpython_entry_points_launch_as_ctypes(self):
        """The exported package's _cake_native (dispatch/PyEntry.c) makes the same driver calls
        as the ctypes path (a routed shape with staging, a forced variant) and raises the same
        errors with the same words; it shares the library's state (one libcake_library.so)."""
        import sysconfig
        with tempfile.TemporaryDirectory() as tmp:
            pkg, variants, fake, router = self.fake_package(tmp)
            folder = os.path.join(pkg, "cake_library", "library")
            if not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")):
                self.skipTest("no CPython headers: the export builds no _cake_native")
            self.assertTrue(os.path.isfile(os.path.join(folder, "_cake_native.abi3.so")))
            B, N, D, K = 2, 700, 61, 97
            forced = next(v for v in router.legal(B, N, D, K, "bfloat16")
                          if v["name"] != router.route(B, N, D, K, "bfloat16")["kernel"])
            code = f"""
import sys
sys.path.insert(0, {pkg!r})
from cake_library import native
n = native.load({folder!r})
print("entry", n.entry is not None)
n.assign({self.X}, {self.C}, {self.CSQ}, {self.OUT}, {B}, {N}, {D}, {K}, "bfloat16", None)
n.assign_variant({forced["name"]!r}, {self.X}, {self.C}, {self.CSQ}, {self.OUT}, {B}, {N}, {D}, {K}, "bfloat16", 7)
for bad in ((0, {self.C}, {self.CSQ}, {self.OUT}, {B}, {N}, {D}, {K}, "bfloat16", None),
            ({self.X}, {self.C}, {self.CSQ}, {self.OUT}, {B}, {N}, 0, {K}, "bfloat16", None)):
    try:
        n.assign(*bad)
    except ValueError as e:
        print("ValueError", e)
import ctypes
try:
    n.assign_coded({self.X}, {self.C}, {self.CSQ}, {self.OUT}, {B}, {N}, {D}, {K}, 1, 1.5)
except (TypeError, ctypes.ArgumentError):
    print("not a stream")
"""
            logs = {}
            for arm in ("ctypes", "cpython"):
                log = os.path.join(tmp, arm + ".jsonl")
                env = dict(os.environ, LD_LIBRARY_PATH=fake, FAKE_CUDA_LOG=log, FAKE_CUDA_PARAMS="5",
                           CAKE_LIBRARY_CTYPES="1" if arm == "ctypes" else "0")
                r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
                self.assertEqual(r.returncode, 0, r.stderr)
                with open(log) as f:
                    logs[arm] = (r.stdout.splitlines(), [json.loads(line) for line in f])
            (out_c, calls_c), (out_p, calls_p) = logs["ctypes"], logs["cpython"]
            self.assertEqual((out_c[0], out_p[0]), ("entry False", "entry True"))
            self.assertEqual(out_c[1:], out_p[1:])
            self.assertEqual(out_p[1:], ["ValueError null device pointer for x",
                                         f"ValueError sizes must be integers >= 1 (B={B} N={N} D=0 K={K})",
                                         "not a stream"])
            self.assertEqual(calls_c, calls_p)
            self.assertEqual([c["name"] for c in calls_p if c["call"] == "cuLaunchKernel"][-1],
                             forced["name"])
            # Two packages in one process: each module calls its own library (A lacks the routed
            # kernel's cubin, B has it), whichever was loaded first.
            routed = router.route(B, N, D, K, "bfloat16")["kernel"]
            two = {}
            for arm in ("a", "b"):
                two[arm] = os.path.join(tmp, "two", arm)
                shutil.copytree(os.path.join(pkg, "cake_library"), os.path.join(two[arm], "cake_library"))
            os.remove(os.path.join(two["a"], "cake_library", "library", "kernels", routed + ".cubin"))
            code = f"""
import sys
sys.path.insert(0, {pkg!r})
from cake_library import native
libs = {{arm: native.load(folder + "/cake_library/library") for arm, folder in {two!r}.items()}}
for arm in ("b", "a"):
    try:
        libs[arm].assign({self.X}, {self.C}, {self.CSQ}, {self.OUT}, {B}, {N}, {D}, {K}, "bfloat16", None)
        print(arm, "launched", libs[arm].entry is not None)
    except RuntimeError as e:
        print(arm, "RuntimeError", "cannot read" in str(e))
"""
            r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               env=dict(os.environ, LD_LIBRARY_PATH=fake, FAKE_CUDA_PARAMS="5"))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stdout.split("\n")[:2], ["b launched True", "a RuntimeError True"])

    def test_the_usual_call_from_tensors_in_one_c_call(self):
        """kmeans.py's fast path (PyEntry.c's assign_tensors), with a stand-in torch: a shape's
        first call runs the Python checks and records its kernel; later calls make the same
        driver calls from C without them, in both forms (3-D and 2-D) and for a kernel the
        autotuner chose; a call the fast path does not serve (a bad argument, c_sq missing where
        the library has no |c|^2 kernel, another current device) takes the Python path, which
        names the argument and launches nothing."""
        import sysconfig
        if not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")):
            self.skipTest("no CPython headers: the export builds no _cake_native")
        with tempfile.TemporaryDirectory() as tmp:
            pkg, variants, fake, router = self.fake_package(tmp)
            B, N, D, K = 2, 700, 61, 97
            forced = next(v for v in router.legal(1, N, D, K, "bfloat16")
                          if v["name"] != router.route(1, N, D, K, "bfloat16")["kernel"])
            log = os.path.join(tmp, "calls.jsonl")
            code = f"""
import sys, types
sys.path.insert(0, {pkg!r})
torch = types.ModuleType("torch")
for name in ("float16", "bfloat16", "float32", "int32", "float64"):
    setattr(torch, name, type(name, (), {{"__repr__": lambda self, n=name: "torch." + n}})())
class Tensor:
    def __init__(self, shape, dtype, ptr, device=0, contiguous=True):
        self.shape, self.dtype, self.ptr, self.dev, self.contiguous = tuple(shape), dtype, ptr, device, contiguous
    is_cuda = property(lambda self: self.dev >= 0)
    device = property(lambda self: "cuda:%d" % self.dev if self.dev >= 0 else "cpu")
    def get_device(self): return self.dev
    def is_contiguous(self): return self.contiguous
    def data_ptr(self): return self.ptr
    def dim(self): return len(self.shape)
torch.Tensor = Tensor
current = [0]
torch._C = types.SimpleNamespace(_cuda_getDevice=lambda: current[0], _cuda_getCurrentRawStream=lambda dev: 0)
import contextlib
@contextlib.contextmanager
def device(index):
    saved, current[0] = current[0], index
    yield
    current[0] = saved
torch.cuda = types.SimpleNamespace(is_current_stream_capturing=lambda: False, device=device)
sys.modules["torch"] = torch
from cake_library import kmeans as km
checked = [0]
plain_check = km._check
def counted(*a):
    checked[0] += 1
    return plain_check(*a)
km._check = counted
lib = km.KMeansLibrary({os.path.join(pkg, "cake_library", "library")!r}, autotune=1)
bf = torch.bfloat16
def T(shape, ptr, dtype=bf, **kw): return Tensor(shape, dtype, ptr, **kw)
x, c, csq, out = T(({B}, {N}, {D}), {self.X}), T(({B}, {K}, {D}), {self.C}), T(({B}, {K}), {self.CSQ}, torch.float32), T(({B}, {N}), {self.OUT}, torch.int32)
x2, c2, csq2, out2 = T(({N}, {D}), {self.X}), T(({K}, {D}), {self.C}), T(({K},), {self.CSQ}, torch.float32), T(({N},), {self.OUT}, torch.int32)
def mark(what):
    print(what, checked[0], sum(1 for _ in open({log!r})), flush=True)
def call(what, *a, **kw):
    try:
        r = lib.assign(*a, **kw)
        mark(what + (" out" if r is a[-1] or r is kw.get("out") else " other"))
    except Exception as e:
        mark(what + " " + type(e).__name__ + " " + str(e).split(":")[0].split(" ")[0])
call("3d first", x, c, csq, out)
call("3d again", x, c, csq, out)
call("3d no csq", x, c, None, out)
call("2d first", x2, c2, csq2, out2)
call("2d again", x2, c2, csq2, out2)
call("bad out", x, c, csq, T(({B}, {N} + 1), {self.OUT}, torch.int32))
call("cpu x", T(({B}, {N}, {D}), {self.X}, device=-1), c, csq, out)
call("strided c", x, T(({B}, {K}, {D}), {self.C}, contiguous=False), csq, out)
call("f16 c", x, T(({B}, {K}, {D}), {self.C}, torch.float16), csq, out)
call("out f32", x, c, csq, T(({B}, {N}), {self.OUT}, torch.float32))
call("not a tensor", [1.0], c, csq, out)
current[0] = 1
call("other device", x, c, csq, out)
current[0] = 0
lib._native_csq.discard("bfloat16")
lib._configured = False
lib._entry.configure(torch.Tensor, (torch.float16, torch.bfloat16, torch.float32), km._TORCH_DTYPES, torch.int32, km._CURRENT_DEVICE, km._RAW_STREAM, 0)
call("no csq kernel", x, c, None, out)
lib.autotuner.count = 4
lib.autotuner.chosen[(1, {N}, {D}, {K}, "bfloat16", 0)] = {{"kernel": {forced["name"]!r}}}
lib._routes.clear()
call("tuned first", x2, c2, csq2, out2)
call("tuned again", x2, c2, csq2, out2)
for bad in ((lambda: lib._entry.configure(1, 2)), (lambda: lib._entry.assign_tensors(x, c, csq, out))):
    try:
        bad()
    except TypeError as e:
        print("TypeError", str(e).split("(")[0], 0, 0)
print("routes not a dict", lib._entry.assign_tensors(x, c, csq, out, []) is None, 0, 0)
# The fast path keeps no reference it took (tensors, their dtypes, the result).
held = (x2, c2, csq2, out2, bf, torch.float32, torch.int32)
before = [sys.getrefcount(o) for o in held]
for _ in range(100):
    lib.assign(x2, c2, csq2, out2)
print("references kept", [sys.getrefcount(o) for o in held] != before, 0, 0)
"""
            env = dict(os.environ, LD_LIBRARY_PATH=fake, FAKE_CUDA_LOG=log, CAKE_LIBRARY_CTYPES="0",
                       FAKE_CUDA_PARAMS_km_bf16_csq_l4="4", FAKE_CUDA_PARAMS_km_best_finish="3",
                       FAKE_CUDA_PARAMS_km_bf16_pad="13", FAKE_CUDA_PARAMS_km_bf16_pad_i32="13",
                       **{"FAKE_CUDA_PARAMS_" + v["name"]: str(len(v["manifest"]["params"])) for v in variants})
            open(log, "w").close()
            r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(log) as f:
                calls = [json.loads(line) for line in f]
            lines = r.stdout.splitlines()
            # The entry points' own argument errors, and a routes table that is not a dict.
            self.assertEqual(lines[-4:], ["TypeError configure 0 0", "TypeError assign_tensors 0 0",
                                          "routes not a dict True 0 0", "references kept False 0 0"])
            seen, steps = (0, 0), {}
            for line in lines[:-4]:
                # Each call printed: what it was, the Python checks run so far, the log's length.
                *what, checks, logged = line.split(" ")
                checks, logged = int(checks), int(logged)
                steps[" ".join(what)] = (checks - seen[0], [c for c in calls[seen[1]:logged]
                                                            if c["call"] == "cuLaunchKernel"])
                seen = (checks, logged)
            launches = lambda what: [(c["name"], c["params"], c["grid"]) for c in steps[what][1]]  # noqa: E731
            self.assertEqual(steps["3d first out"][0], 1)
            self.assertEqual(steps["3d again out"][0], 0)
            self.assertTrue(launches("3d first out"))
            self.assertEqual(launches("3d again out"), launches("3d first out"))
            # Without c_sq: the dispatcher's |c|^2 kernel, straight from C (the shape is known).
            self.assertEqual(steps["3d no csq out"][0], 0)
            self.assertEqual(launches("3d no csq out")[0][0], "km_bf16_csq_l4")     # D = 61
            self.assertEqual((steps["2d first out"][0], steps["2d again out"][0]), (1, 0))
            self.assertEqual(launches("2d again out"), launches("2d first out"))
            for what, error in (("bad out", "ValueError out"), ("cpu x", "ValueError x"),
                                ("strided c", "ValueError c"), ("f16 c", "TypeError c"),
                                ("out f32", "TypeError out"), ("not a tensor", "TypeError x")):
                self.assertEqual((steps[what + " " + error][0], launches(what + " " + error)), (1, []), what)
            # Another current device: the Python path, which launches on x's device.
            self.assertEqual(steps["other device out"][0], 1)
            self.assertEqual(launches("other device out"), launches("3d first out"))
            # No |c|^2 kernel for the dtype: the Python path, to torch's |c|^2 (which this
            # stand-in torch lacks: the call fails there, before any launch).
            failed = next(k for k in steps if k.startswith("no csq kernel"))
            self.assertEqual((steps[failed][0], launches(failed)), (1, []), failed)
            self.assertEqual(steps["tuned first out"][0], 1)
            self.assertEqual(steps["tuned again out"][0], 0)
            self.assertEqual(launches("tuned again out"), launches("tuned first out"))
            self.assertEqual(launches("tuned again out")[-1][0], forced["name"])

    def test_split_k_against_a_fake_driver(self):
        """A split-K variant: `best` is a workspace of B * N int64 filled with ones when it is
        allocated (kept per shape: the finish kernel fills it again), the kernel merges into
        it, then the finish kernel writes idx from it (best, idx, B * N; one thread per
        element)."""
        with tempfile.TemporaryDirectory() as tmp:
            pkg, variants, fake, router = self.fake_package(tmp)
            B, N, D, K = 2, 70, 64, 3000
            v = next(v for v in router.legal(B, N, D, K, "bfloat16")
                     if "_ks" in v["config"] and v["index_bits"] == 64)
            env = {"FAKE_CUDA_PARAMS_" + v["name"]: str(len(v["manifest"]["params"])),
                   "FAKE_CUDA_PARAMS_km_best_finish": "3",
                   "FAKE_CUDA_PARAMS_km_bf16_pad": "13", "FAKE_CUDA_PARAMS_km_bf16_pad_i32": "13"}
            rc, error, calls = self.run_fake(tmp, pkg, fake, (B, N, D, K), env, variant=v["name"])
            self.assertEqual(rc, 0, error)
            fills = [c for c in calls if c["call"] == "cuMemsetD8" and c["value"] == 255]
            self.assertEqual([c["bytes"] for c in fills], [B * N * 8])
            launches = [c for c in calls if c["call"] == "cuLaunchKernel"]
            self.assertEqual([c["name"] for c in launches][-2:], [v["name"], "km_best_finish"])
            names = [p["name"] for p in v["manifest"]["params"]]
            self.assertNotIn("idx", names)
            best = launches[-2]["params"][names.index("best")]
            self.assertEqual(best, fills[0]["dst"])
            self.assertEqual(launches[-1]["params"], [best, self.OUT, B * N])
            self.assertEqual(launches[-1]["grid"], [-(-B * N // 256), 1, 1])
            self.assertEqual(launches[-1]["programmatic"], 1)

    def fake_package(self, tmp):
        """A bf16 package with its staging kernel and the fake driver (skips the test without
        cuda.h or a C compiler): (package, variants, fake driver folder, router)."""
        if not have_cuda_headers() or not shutil.which("cc"):
            self.skipTest("no cuda.h or no C compiler")
        pkg, variants, table = self.export_subset(tmp, pads=True)
        return pkg, variants, self.fake_driver(tmp), Router({"op": "kmeans_assign", "variants": variants,
                                                             "table": table})

    fake_driver = staticmethod(util.fake_cuda_driver)

    def run_fake(self, tmp, pkg, fake, shape, env, variant=None, x=None, csq=None):
        """One cake_library_kmeans_assign (or, with `variant`, the forced-variant entry) under
        the fake driver, with x and csq at their usual addresses unless given: (rc, error,
        logged calls)."""
        B, N, D, K = shape
        log = os.path.join(tmp, "log%d_%d_%d_%d_%d.jsonl" % (shape + (len(os.listdir(tmp)),)))
        call = ("lib.cake_library_kmeans_assign(" if variant is None else
                f"lib.cake_library_kmeans_assign_variant(lib.cake_library_variant_index(b'{variant}'), ")
        code = ("import ctypes, sys; lib = ctypes.CDLL(sys.argv[1]); "
                "lib.cake_library_kmeans_assign.argtypes = [ctypes.c_uint64] * 4 + [ctypes.c_int64] * 4 "
                "+ [ctypes.c_int, ctypes.c_void_p]; lib.cake_library_error.restype = ctypes.c_char_p; "
                "lib.cake_library_kmeans_assign_variant.argtypes = [ctypes.c_int] + "
                "[ctypes.c_uint64] * 4 + [ctypes.c_int64] * 4 + [ctypes.c_int, ctypes.c_void_p]; "
                "lib.cake_library_set_kernel_dir(sys.argv[2].encode()); "
                f"rc = {call}{x or self.X}, {self.C}, {self.CSQ if csq is None else csq}, {self.OUT}, "
                f"{B}, {N}, {D}, {K}, 1, None); print(rc, lib.cake_library_error().decode())")
        r = subprocess.run([sys.executable, "-c", code,
                            os.path.join(pkg, "cake_library", "library", "libcake_library.so"),
                            os.path.join(pkg, "cake_library", "library", "kernels")],
                           capture_output=True, text=True,
                           env=dict(os.environ, LD_LIBRARY_PATH=fake, FAKE_CUDA_LOG=log, **env))
        self.assertEqual(r.returncode, 0, r.stderr)
        rc, _, error = r.stdout.strip().partition(" ")
        calls = []
        if os.path.exists(log):
            with open(log) as f:
                calls = [json.loads(line) for line in f]
        return int(rc), error, calls

    X, C, CSQ, OUT = 0x100000, 0x200000, 0x300000, 0x400000

    def check_launch_path(self, tmp, pads):
        from cake_library import expr
        pkg, variants, table = self.export_subset(tmp, pads=pads)
        fake = self.fake_driver(tmp)
        router = Router({"op": "kmeans_assign", "variants": variants, "table": table})
        # Aligned and ragged D, K % 4 != 0 with B > 1 (|c|^2 staged), both at once, a D only simt
        # serves, B = 1, a shape past the 32-bit builds' bound (2^31 padded elements of x:
        # the 64-bit kernel and the 64-bit staging kernel), and a persistent grid (tcd cs at an
        # odd D and K <= 128; K > 128 keeps the ragged-D shapes on staged kernels).
        for B, N, D, K in ((2, 5000, 64, 1001), (3, 700, 61, 136), (2, 700, 61, 137), (2, 300, 600, 40),
                           (1, 9, 128, 7), (1, 1 << 25, 61, 197), (3, 700, 61, 96)):
            want = router.route(B, N, D, K, "bfloat16")
            v = next(v for v in variants if v["name"] == want["kernel"])
            m, s = v["manifest"], want["sizes"]
            huge = B * N * s["D"] > 1 << 30
            if huge:
                self.assertEqual(v["index_bits"], 64, v["name"])
            pad_name = "km_bf16_pad" if huge else "km_bf16_pad_i32"
            env = {"FAKE_CUDA_PARAMS_" + v["name"]: str(len(m["params"])), "FAKE_CUDA_PARAMS_km_best_finish": "3",
                   "FAKE_CUDA_PARAMS_km_bf16_pad": "13", "FAKE_CUDA_PARAMS_km_bf16_pad_i32": "13"}
            rc, error, calls = self.run_fake(tmp, pkg, fake, (B, N, D, K), env)
            self.assertEqual(rc, 0, error)
            self.assertIn({"call": "cuModuleGetFunction", "name": v["name"]}, calls)
            copies = [c for c in calls if c["call"] == "cuMemcpy2DAsync"]
            launches = [c for c in calls if c["call"] == "cuLaunchKernel"]
            ptr = {"x": self.X, "c": self.C, "csq": self.CSQ, "idx": self.OUT}
            # A split-K variant is followed by the finish kernel (test_split_k_against_a_fake_driver).
            finish = [c for c in launches if c["name"] == "km_best_finish"]
            launches = [c for c in launches if c["name"] != "km_best_finish"]
            split = any(p["name"] == "best" for p in m["params"])
            self.assertEqual(len(finish), int(split), v["name"])
            if split:
                ptr["best"] = finish[0]["params"][0]
            el = 2
            staged = v["staging"] != "none" and s["D"] != D
            staged_csq = "KP" in s and s["KP"] != K
            if (staged or staged_csq) and pads:
                # One launch of the staging kernel for x, c and |c|^2 (a segment of 0 rows is
                # skipped); it writes every element of the copies.
                stagings = [c for c in launches if c["name"] == pad_name]
                self.assertEqual(len(stagings), 1)
                p = stagings[0]["params"]
                rx, rc = (B * N, B * K) if staged else (0, 0)
                qb = B if staged_csq else 0
                self.assertEqual(p[6:], [rx, rc, D, s["D"], qb, K, s.get("KP", K)])
                elements = (rx + rc) * s["D"] + qb * s.get("KP", K)
                per_block = PAD_BLOCK * pad_group("bfloat16")   # one 16-byte vector per thread
                self.assertEqual(stagings[0]["grid"], [-(-elements // per_block), 1, 1])
                self.assertEqual(stagings[0]["block"], [PAD_BLOCK, 1, 1])
                if staged:
                    self.assertEqual((p[0], p[2]), (ptr["x"], ptr["c"]))
                    ptr["x"], ptr["c"] = p[1], p[3]
                if staged_csq:
                    self.assertEqual(p[4], ptr["csq"])
                    ptr["csq"] = p[5]
            elif staged:
                for name, rows in (("x", B * N), ("c", B * K)):
                    copy = next(c for c in copies if c["src"] == ptr[name])
                    self.assertEqual((copy["src_pitch"], copy["dst_pitch"], copy["width"], copy["height"]),
                                     (D * el, s["D"] * el, D * el, rows))
                    ptr[name] = copy["dst"]
            if not pads or not (staged or staged_csq):
                self.assertEqual([c["name"] for c in launches], [v["name"]])
            if staged_csq and not pads:
                copy = next(c for c in copies if c["src"] == self.CSQ)
                self.assertEqual((copy["src_pitch"], copy["dst_pitch"], copy["height"]),
                                 (K * 4, s["KP"] * 4, B))
                ptr["csq"] = copy["dst"]
            if v["staging"] == "none" or pads or (s["D"] == D and s.get("KP", K) == K):
                self.assertEqual(copies, [])
            params = {p["name"]: p for p in m["params"]}
            maps = [c for c in calls if c["call"] == "cuTensorMapEncodeTiled"]
            tmas = [p for p in m["params"] if p["kind"] == "tma"]
            self.assertEqual(len(maps), len(tmas))
            for got, p in zip(maps, tmas):
                t = params[p["tensor"]]
                shape = [expr.evaluate(e, s) for e in t["shape"]]
                strides = [expr.evaluate(e, s) * (4 if t["dtype"] == "f32" else 2) for e in t["strides"]]
                self.assertEqual(got["addr"], ptr[p["tensor"]], p["name"])
                self.assertEqual(got["dims"], shape[::-1], p["name"])
                self.assertEqual(got["strides"], strides[:-1][::-1], p["name"])
                self.assertEqual(got["box"], p["box"][::-1], p["name"])
            launch = launches[-1]
            self.assertEqual(launch["name"], v["name"])
            # Every kernel waits for its predecessor before touching memory (the tactic), so each
            # launch may overlap the previous kernel of the stream.
            self.assertTrue(m.get("programmatic_launch"), v["name"])
            self.assertEqual([c["programmatic"] for c in launches + finish], [1] * len(launches + finish))
            self.assertEqual(launch["grid"], [expr.evaluate(g, s) for g in m["grid"]])
            self.assertEqual(launch["block"], m["block"])
            self.assertEqual(launch["smem"], m["dynamic_shared_bytes"])
            upload = next((c for c in calls if c["call"] == "cuMemcpyHtoD"), None)
            slot = 0
            for value, p in zip(launch["params"], m["params"]):
                if p["kind"] == "tensor":
                    self.assertEqual(value, ptr[p["name"]], p["name"])
                elif p["kind"] == "symbol":
                    self.assertEqual(value, s[p["name"]], p["name"])
                else:                       # the encoded maps, uploaded side by side
                    self.assertEqual(value, upload["dst"] + 128 * slot, p["name"])
                    slot += 1
            if m["dynamic_shared_bytes"] > 48 * 1024:
                self.assertIn({"call": "cuFuncSetAttribute", "attribute": 8,
                               "value": m["dynamic_shared_bytes"]}, calls)
        # CAKE_PROGRAMMATIC_LAUNCH=0: the same kernels, launched the ordinary way.
        rc, error, calls = self.run_fake(tmp, pkg, fake, (3, 700, 61, 136),
                                         dict(env, CAKE_PROGRAMMATIC_LAUNCH="0"))
        self.assertEqual(rc, 0, error)
        launches = [c for c in calls if c["call"] == "cuLaunchKernel"]
        self.assertTrue(launches)
        self.assertEqual([c["programmatic"] for c in launches], [0] * len(launches))
        # Inside a CUDA graph capture, a first call (workspaces to allocate, maps to upload)
        # fails naming why, and launches nothing.
        rc, error, calls = self.run_fake(tmp, pkg, fake, (3, 700, 61, 136), {"FAKE_CUDA_CAPTURING": "1"})
        self.assertEqual(rc, -2)
        self.assertIn("CUDA graph capture", error)
        self.assertEqual([c for c in calls if c["call"] in ("cuLaunchKernel", "cuMemAlloc")], [])


if __name__ == "__main__":
    unittest.main()
