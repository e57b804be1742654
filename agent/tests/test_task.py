"""Task files: the shipped tasks, validation of bad ones, and the CLI's exit on them."""
import io
import os
import subprocess
import unittest
from contextlib import redirect_stderr

from tests import util
from cake_agent import cli
from cake_agent.task import TaskError, load_task, signature

SHIPPED = ["vector_add", "softmax", "gemm", "gemm_rb", "kmeans_assign", "kmeans_fp16", "kmeans_bf16"]


def base_task(tmp):
    seed = os.path.join(tmp, "seed.mlir")
    with open(seed, "w") as f:
        f.write("// vec {{VEC}} block {{BLOCK * VEC}}\n")
    return {"name": "t", "seeds": [seed], "tunables": {"VEC": {"type": "int", "values": [1, 2, 4]},
                                                       "BLOCK": {"type": "int", "min": 64, "max": 256, "pow2": True}},
            "shapes": [{"N": 100}, {"N": 7}], "reference": "r.cubin", "rtol": 1e-5,
            "floor": {"bytes": "12 * N", "flops": "N"}}


class ShippedTasksTest(util.TempDir):
    def test_shipped_tasks_load_with_ragged_shapes(self):
        for name in SHIPPED:
            t = load_task(os.path.join(util.TASKS, name + ".json"))
            self.assertEqual(t.name, name)
            self.assertGreaterEqual(len(t.shapes), 3)
            self.assertTrue(t.genome_ok(t.start_genome()))
            ir = t.instantiate(t.start_genome())
            self.assertNotIn("{{", ir)
            self.assertIn(f"cake.kernel @{t.kernel or name}", ir)
            self.assertGreater(t.floor_seconds(t.shapes[0]), 0)

    @util.needs_tools
    def test_start_and_extreme_genomes_compile(self):
        """The start genome and the all-largest genome of every shipped task are valid CAKE IR."""
        for name in SHIPPED:
            t = load_task(os.path.join(util.TASKS, name + ".json"))
            largest = (0, {k: v[-1] for k, v in t.tunables.items()})
            for g in (t.start_genome(), largest):
                if not t.genome_ok(g):
                    continue
                path = self.write(f"{name}.mlir", t.instantiate(g))
                proc = subprocess.run([os.path.join(util.BIN, "cake-translate"), path, "--emit=ptx", "-o", os.devnull],
                                      capture_output=True, text=True)
                self.assertEqual(proc.returncode, 0, f"{name} {g}: {proc.stderr[-500:]}")

    def test_grid_expands_after_shapes(self):
        d = base_task(self.tmp)
        d["grid"] = {"N": [8, 9]}
        t = load_task(self.write_json("t.json", d))
        self.assertEqual(t.shapes, [{"N": 100}, {"N": 7}, {"N": 8}, {"N": 9}])
        self.assertEqual(t.tunables["BLOCK"], [64, 128, 256])
        self.assertEqual(signature((0, {"VEC": 2, "BLOCK": 64})), "s0:BLOCK=64,VEC=2")
        self.assertEqual(t.instantiate((0, {"VEC": 2, "BLOCK": 64})), "// vec 2 block 128\n")


class BadTaskTest(util.TempDir):
    def check(self, mutate, *fragments):
        d = base_task(self.tmp)
        mutate(d)
        path = self.write_json("bad.json", d)
        with self.assertRaises(TaskError) as cm:
            load_task(path)
        for frag in fragments:
            self.assertIn(frag, str(cm.exception))
        return path

    def test_missing_fields(self):
        self.check(lambda d: [d.pop(k) for k in ("reference", "floor", "shapes")],
                   "missing field 'reference'", "missing field 'floor'", "missing field 'shapes'")

    def test_contradictions(self):
        self.check(lambda d: d.update(start={"VEC": 3, "BLOCK": 64}), "start.VEC = 3 is not an allowed value")
        self.check(lambda d: d.update(objective={"kind": "weighted", "weights": [1]}), "one weight per shape (2 shapes)")
        self.check(lambda d: d["tunables"].update(UNUSED={"type": "int", "values": [1]}),
                   "tunable 'UNUSED' appears in no seed placeholder")
        self.check(lambda d: d["tunables"].pop("VEC"), "uses 'VEC', which is not a tunable")
        self.check(lambda d: d.update(budget={"candidates": 4, "gpu_evals": 8}), "exceeds budget.candidates")
        self.check(lambda d: d["tunables"].update(BLOCK={"type": "int", "min": 9, "max": 3}), "min 9 > max 3")
        self.check(lambda d: d.update(constraints=["VEC > 8"]), "is false for the start values")
        self.check(lambda d: d.update(shapes=[{"N": 0}]), "sizes must be positive integers")
        self.check(lambda d: d.update(shapes=[{"N": 4}, {"M": 4}]), "every shape must name the same symbols")
        self.check(lambda d: d.update(floor={"bytes": "12 * Q", "flops": "N"}), "unknown name 'Q'")
        self.check(lambda d: d.update(rtol=-1), "'rtol' must be a positive number")
        self.check(lambda d: d.update(colour="red"), "unknown field 'colour'")

    def test_cli_exits_2_with_the_message(self):
        path = self.check(lambda d: d.pop("rtol"), "missing field 'rtol'")
        err = io.StringIO()
        with redirect_stderr(err):
            rc = cli.main(["evolve", path, "--db", os.path.join(self.tmp, "x.db"), "--quiet"])
        self.assertEqual(rc, 2)
        self.assertIn("missing field 'rtol'", err.getvalue())
        rc = subprocess.run([os.path.join(util.AGENT, "cake"), "evolve", os.path.join(self.tmp, "nope.json")],
                            capture_output=True, text=True, cwd=self.tmp)
        self.assertEqual(rc.returncode, 2)
        self.assertIn("cannot read", rc.stderr)


if __name__ == "__main__":
    unittest.main()
