"""Task files: the shipped tasks, validation of bad ones, and the CLI's exit on them."""
import io
import os
import subprocess
import unittest
from contextlib import redirect_stderr

from tests import util
from cake_agent import cli
from cake_agent.task import TaskError, load_task, signature

SHIPPED = ["vector_add", "softmax", "gemm", "gemm_rb", "kmeans_assign", "kmeans_fp16", "kmeans_bf16", "kda"]


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

    def test_wrong_types(self):
        """Every field is type-checked up front (issue 15 item 6): each of these once crashed mid-run,
        was reported as "database unwritable", or passed validation to crash under --backend batch."""
        cases = [
            (dict(shapes="M=4"), "'shapes' must be a list of objects (symbol -> size), got 'M=4'"),
            (dict(shapes={"N": 4}), "'shapes' must be a list of objects"),
            (dict(shapes=[{"N": 4}, 5]), "shape 1 5: expected an object"),
            (dict(shapes=[{"N M": 4}]), "shapes: 'N M' is not a valid symbol name"),
            (dict(kernel=7), "'kernel' must be a string (the kernel's entry name, cake-run --kernel), got 7"),
            (dict(name=["t"]), "'name' must be a non-empty string, got ['t']"),
            (dict(name=""), "'name' must be a non-empty string, got ''"),
            ({"class": 3}, "'class' must be a non-empty string (the task class), got 3"),
            (dict(description=["x"]), "'description' must be a string, got ['x']"),
            (dict(reference=5), "'reference' must be a string (the reference cubin's file name or path), got 5"),
            (dict(ref_entry=5), "'ref_entry' must be a string"),
            (dict(scalars=[1, 2]), "'scalars' must be an object (name -> number, cake-run --scalar), got [1, 2]"),
            (dict(scalars={"alpha": "2.5"}), "scalars.alpha must be a number, got '2.5'"),
            (dict(scalars={"a,b": 1}), "scalars: 'a,b' is not a valid name"),
            (dict(seeds=[5]), "seeds[0] must be a file path (a string), got 5"),
            (dict(seeds="seed.mlir"), "'seeds' must be a non-empty list of IR file paths"),
            (dict(tunables=[1]), "'tunables' must be an object (name -> allowed values), got [1]"),
            (dict(constraints="VEC < 8"), "'constraints' must be a list of expressions, got 'VEC < 8'"),
            (dict(constraints=[8]), "constraints[0] must be an expression (a string), got 8"),
            (dict(start=[1, 64]), "'start' must be an object (tunable -> value), got [1, 64]"),
            (dict(start={"VEC": True, "BLOCK": 64}), "start.VEC = True is not an allowed value"),
            (dict(grid={"N": 5}), "grid.N must be a non-empty list of positive integers, got 5"),
            (dict(grid=[4, 8]), "'grid' must be an object (symbol -> list of sizes), got [4, 8]"),
            (dict(rtol="1e-6"), "'rtol' must be a positive number, got '1e-6'"),
            (dict(rtol=True), "'rtol' must be a positive number, got True"),
            (dict(objective="median"), "'objective' must be an object"),
            (dict(objective={"kind": "median", "weight": [1]}), "objective.weight: unknown key"),
            (dict(floor="12 * N"), "'floor' must be an object ('bytes' and 'flops' formulas), got '12 * N'"),
            (dict(floor={"bytes": 12, "flops": "N"}), "floor.bytes must be a formula (a string)"),
            (dict(floor={"bytes": "N", "flops": "N", "bandwith": 1e12}), "floor.bandwith: unknown key"),
            (dict(floor={"bytes": "N", "flops": "N", "bandwidth": True}), "floor.bandwidth must be a positive number"),
            (dict(budget=[1]), "'budget' must be an object, got [1]"),
            (dict(budget={"candidates": 2.5}), "budget.candidates must be a positive integer, got 2.5"),
            (dict(budget={"wall_s": "1h"}), "budget.wall_s must be a positive number, got '1h'"),
            (dict(timeouts={"run": None}), "timeouts.run must be a positive number, got None"),
        ]
        for change, message in cases:
            with self.subTest(change=change):
                self.check(lambda d: d.update(change), message)
        self.check(lambda d: d["tunables"].update(BLOCK={"type": "int", "min": 64, "max": 256, "pow2": "yes"}),
                   "tunables.BLOCK: 'pow2' must be true or false, got 'yes'")
        self.check(lambda d: d["tunables"].update(BLOCK={"min": 64, "max": 256, "values": [64]}),
                   "tunables.BLOCK: give 'values' or a 'min'/'max' range, not both")
        self.check(lambda d: d["tunables"].update(BLOCK={"min": 64, "max": 256, "stride": 2}),
                   "tunables.BLOCK.stride: unknown key")
        self.check(lambda d: d["tunables"].update(BLOCK={"min": False, "max": 256}),
                   "tunables.BLOCK: an int needs 'values' or integer 'min' and 'max'")

    def test_every_problem_in_one_message(self):
        """One message lists every problem, and a field of the wrong type gets one line, not a
        cascade of follow-on complaints (a mistyped 'tunables' does not make every placeholder unknown)."""
        path = self.check(lambda d: d.update(kernel=7, shapes="M=4", reference=5, tunables=[1], budget={"screen": 0},
                                             colour="red"),
                          "'kernel' must be a string", "'shapes' must be a list", "'reference' must be a string",
                          "'tunables' must be an object", "budget.screen must be a positive integer",
                          "unknown field 'colour'")
        with self.assertRaises(TaskError) as cm:
            load_task(path)
        lines = str(cm.exception).splitlines()
        self.assertEqual(len(lines), 1 + 6, str(cm.exception))
        self.assertNotIn("not a tunable", str(cm.exception))
        self.assertNotIn("missing field 'shapes'", str(cm.exception))

    def test_bad_types_exit_2_before_any_work(self):
        """`"kernel": 7` once crashed mid-run (leaving the run 'running'), a list 'name' was reported as
        "database unwritable" (exit 6): now both are exit 2 before the database is even created."""
        for change in (dict(kernel=7), dict(name=["t"]), {"class": {"x": 1}}, dict(shapes="M=4")):
            with self.subTest(change=change):
                d = base_task(self.tmp)
                d.update(change)
                path = self.write_json("bad.json", d)
                db = os.path.join(self.tmp, "never.db")
                rc, out, err = util.run_cli("evolve", path, "--db", db, "--bin", os.path.join(self.tmp, "nobin"),
                                            "--quiet")
                self.assertEqual(rc, 2, err)
                self.assertIn("invalid task", err)
                self.assertNotIn("Traceback", err)
                self.assertFalse(os.path.exists(db), "the database was created for a task that is refused")

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
