"""The `cake` Python bindings: the same PTX, cubin and manifest as cake-translate on every example,
diagnostics as objects, errors as exceptions, nothing printed, closed contexts refused.

Run by bindings.test with PYTHONPATH set to the build's python_packages; CAKE_TRANSLATE and
CAKE_EXAMPLES name the tool and the examples directory."""
import contextlib
import glob
import json
import os
import subprocess
import tempfile
import unittest

import cake

TRANSLATE = os.environ["CAKE_TRANSLATE"]
EXAMPLES = sorted(glob.glob(os.path.join(os.environ["CAKE_EXAMPLES"], "*.mlir")))
HAVE_PTXAS = subprocess.run([TRANSLATE, EXAMPLES[0], "--emit=cubin", "-o", os.devnull],
                            capture_output=True).returncode == 0

BAD_TARGET = """cake.kernel @k() attributes {target = "sm_75", block = array<i64: 32>,
                             grid = affine_map<() -> (1)>} {
  cake.return
}
"""
ELECT_ON_AMPERE = """cake.kernel @k(%y: !cake.tensor<[1], i32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 32>, symbols = [], grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %leader = cake.elect_one
  scf.if %leader {
    cake.store %one, %y[%c0] : i32, !cake.tensor<[1], i32>
  }
  cake.return
}
"""
TWO_TARGETS = """cake.kernel @a() attributes {target = "sm_90a", block = array<i64: 32>,
                             grid = affine_map<() -> (1)>} {
  cake.return
}
cake.kernel @b() attributes {target = "sm_80", block = array<i64: 32>,
                             grid = affine_map<() -> (1)>} {
  cake.return
}
"""


def read(path):
    with open(path) as f:
        return f.read()


def translate(path, *args):
    return subprocess.run([TRANSLATE, path, *args], check=True, capture_output=True).stdout


@contextlib.contextmanager
def stderr_captured():
    """Captures what reaches file descriptor 2 (C++ included) into the yielded list."""
    captured = []
    with tempfile.TemporaryFile() as tmp:
        saved = os.dup(2)
        os.dup2(tmp.fileno(), 2)
        try:
            yield captured
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            captured.append(tmp.read().decode())


class SameAsCakeTranslate(unittest.TestCase):
    def test_every_example(self):
        self.assertTrue(EXAMPLES)
        with cake.Context() as ctx:
            for path in EXAMPLES:
                with self.subTest(example=os.path.basename(path)):
                    module = ctx.parse(read(path), path)
                    ptx, cubin, manifest = ctx.compile(module, cubin=HAVE_PTXAS)
                    self.assertEqual(ptx, translate(path, "--emit=ptx").decode())
                    self.assertEqual(manifest, json.loads(translate(path, "--emit=manifest")))
                    if HAVE_PTXAS:
                        self.assertEqual(cubin, translate(path, "--emit=cubin"))
                    else:
                        self.assertIsNone(cubin)

    def test_hang_debug_same_as_cake_translate(self):
        path = next(p for p in EXAMPLES if p.endswith("kmeans_hopper.mlir"))
        with cake.Context() as ctx:
            module = ctx.parse(read(path), path)
            ptx, _, manifest = ctx.compile(module, cubin=False, hang_timeout_ms=300)
        self.assertEqual(ptx, translate(path, "--emit=ptx", "--hang-timeout-ms=300").decode())
        self.assertEqual(manifest, json.loads(translate(path, "--emit=manifest", "--hang-timeout-ms=300")))
        self.assertEqual(manifest["kernels"][0]["hang_debug"]["timeout_ms"], 300)
        self.assertIn("__cake_hang_report", ptx)

    def test_index_bitwidth_same_as_cake_translate(self):
        path = next(p for p in EXAMPLES if p.endswith("kmeans_hopper.mlir"))
        with cake.Context() as ctx:
            module = ctx.parse(read(path), path)
            ptx, _, manifest = ctx.compile(module, cubin=False, index_bitwidth=32)
            with self.assertRaises(cake.CakeError) as bad:
                ctx.compile(module, cubin=False, index_bitwidth=16)
        self.assertEqual(ptx, translate(path, "--emit=ptx", "--index-bitwidth=32").decode())
        self.assertEqual(manifest, json.loads(translate(path, "--emit=manifest", "--index-bitwidth=32")))
        self.assertEqual(manifest["kernels"][0]["index_bits"], 32)
        self.assertIn("expected index-bitwidth 32 or 64, got 16", str(bad.exception))

    def test_specialize_same_as_cake_translate(self):
        path = next(p for p in EXAMPLES if p.endswith("kmeans_hopper.mlir"))
        with cake.Context() as ctx:
            module = ctx.parse(read(path), path)
            ptx, _, manifest = ctx.compile(module, cubin=False, specialize={"K": 1000})
            with self.assertRaises(cake.CakeError) as bad:
                ctx.compile(module, cubin=False, specialize="Q=3")
        self.assertEqual(ptx, translate(path, "--emit=ptx", "--specialize=K=1000").decode())
        self.assertEqual(manifest, json.loads(translate(path, "--emit=manifest", "--specialize=K=1000")))
        self.assertEqual(manifest["kernels"][0]["constraints"][0], "K == 1000")
        self.assertIn("--specialize names 'Q', which no kernel of the module declares", str(bad.exception))

    def test_module_unchanged_by_compile(self):
        with cake.Context() as ctx:
            module = ctx.parse(read(EXAMPLES[0]), EXAMPLES[0])
            before = str(module)
            ctx.compile(module, cubin=False)
            self.assertEqual(str(module), before)


class Diagnostics(unittest.TestCase):
    def test_verify(self):
        self.assertEqual(cake.verify(read(EXAMPLES[0])), [])
        (diag,) = cake.verify(BAD_TARGET, "bad.mlir")
        self.assertEqual(diag.severity, "error")
        self.assertEqual(diag.location, cake.Location("bad.mlir", 1, 1))
        self.assertIn("unknown target 'sm_75'", diag.message)
        self.assertIsNone(diag.rule)

    def test_verify_reports_findings(self):
        # A kernel the op verifiers accept, with a cake-verify finding: verify() reports it with
        # its rule id, fix hint and op; schedule=False stops after the op verifiers.
        source = ELECT_ON_AMPERE
        (finding,) = cake.verify(source, "elect.mlir")
        self.assertEqual(finding.rule, "target.elect")
        self.assertEqual(finding.op, "cake.elect_one")
        self.assertEqual(finding.location, cake.Location("elect.mlir", 5, 13))
        self.assertIn('set target = "sm_90"', finding.hint)
        self.assertEqual(cake.verify(source, schedule=False), [])
        module = cake.parse(source)
        before = str(module)
        self.assertEqual([d.rule for d in cake.verify(module)], ["target.elect"])
        self.assertEqual(str(module), before)

    def test_walk(self):
        # The structured view: ops with names, locations, typed results, printed attributes,
        # nested regions, without reading MLIR text.
        module = cake.parse(ELECT_ON_AMPERE, "elect.mlir")
        (kernel,) = module.walk("cake.kernel")
        self.assertEqual(kernel["attributes"]["target"], '"sm_80"')
        self.assertIsNone(kernel["parent"])
        (elect,) = module.walk("cake.elect_one")
        self.assertEqual(elect["loc"], {"file": "elect.mlir", "line": 5, "col": 13})
        self.assertEqual(elect["results"][0]["type"], "i1")
        self.assertEqual(elect["parent"], "cake.kernel")
        (store,) = module.walk("cake.store")
        self.assertEqual(store["parent"], "scf.if")
        names = [op["name"] for op in module.walk()]
        self.assertEqual(names[0], "cake.kernel")
        self.assertIn("scf.yield", names)
        self.assertEqual(module.to_json()["schema"], "cake-ir")

    def test_parse_error_raises(self):
        with self.assertRaises(cake.CakeError) as caught:
            cake.parse("cake.kernel @k(", "syntax.mlir")
        (diag,) = caught.exception.diagnostics
        self.assertEqual((diag.location.file, diag.location.line), ("syntax.mlir", 1))
        self.assertIn("syntax.mlir:1:", str(caught.exception))
        with self.assertRaises(cake.CakeError) as caught:
            cake.parse(BAD_TARGET, "bad.mlir")
        self.assertIn("bad.mlir:1:1: error: 'cake.kernel' op unknown target 'sm_75'",
                      str(caught.exception))

    def test_compile_error_has_notes(self):
        with self.assertRaises(cake.CakeError) as caught:
            cake.compile(TWO_TARGETS, "two.mlir", cubin=False)
        (diag,) = caught.exception.diagnostics
        self.assertEqual(diag.location.line, 5)
        self.assertIn("must share a target", diag.message)
        (note,) = diag.notes
        self.assertEqual((note.severity, note.location.line), ("note", 1))
        self.assertIn("two.mlir:1:1: note: the first kernel's target is set here",
                      str(caught.exception))

    def test_other_compile_errors(self):
        source = read(EXAMPLES[0])
        with self.assertRaisesRegex(cake.CakeError, "unknown chip 'sm_75'"):
            cake.compile(source, chip="sm_75", cubin=False)
        with self.assertRaisesRegex(cake.CakeError, "unsupported features '\\+ptx70' for sm_90"):
            cake.compile(source, chip="sm_90", features="+ptx70", cubin=False)
        with self.assertRaisesRegex(cake.CakeError, "expected opt-level 0 to 3, got 7"):
            cake.compile(source, opt_level=7, cubin=False)
        with self.assertRaisesRegex(cake.CakeError, "ptxas not found or not executable"):
            cake.compile(source, ptxas="/nonexistent/ptxas")
        with self.assertRaisesRegex(cake.CakeError, "no cake.kernel and no gpu.module"):
            cake.compile("func.func @f() { return }", cubin=False)

    def test_nothing_printed(self):
        with stderr_captured() as err:
            cake.verify(BAD_TARGET)
            for call in (lambda: cake.parse("cake.kernel @k(", "x.mlir"),
                         lambda: cake.compile(TWO_TARGETS, cubin=False),
                         lambda: cake.run_pipeline(TWO_TARGETS, "no-such-pass")):
                with self.assertRaises(cake.CakeError):
                    call()
        self.assertEqual(err, [""])


class Pipelines(unittest.TestCase):
    def test_run_pipeline_in_place(self):
        with cake.Context() as ctx:
            module = ctx.parse(read(EXAMPLES[0]))
            self.assertIs(ctx.run_pipeline(module, "cake-lower-to-nvvm{chip=sm_80}"), module)
            text = str(module)
            self.assertIn('chip = "sm_80"', text)
            self.assertNotIn("cake.kernel", text)
            # Lowered IR is valid MLIR; the schedule rules (cake-verify) are for CAKE IR and
            # refuse a raw gpu.module (ops.raw-intrinsic), as they would in a candidate.
            self.assertEqual(ctx.verify(module, schedule=False), [])
            self.assertEqual([d.rule for d in ctx.verify(module)], ["ops.raw-intrinsic"])
            # Lowered input compiles as is, without a manifest.
            ptx, _, manifest = ctx.compile(module, cubin=False)
            self.assertIn(".target sm_80", ptx)
            self.assertIsNone(manifest)

    def test_lowered_with_old_ptx_refused(self):
        # LLVM would abort the process on PTX 7.0 for sm_90: the pipeline refuses the option, and
        # compile refuses lowered input that carries it.
        with self.assertRaisesRegex(cake.CakeError, "unsupported features '\\+ptx70' for sm_90"):
            cake.run_pipeline(read(EXAMPLES[0]), "cake-lower-to-nvvm{chip=sm_90 features=+ptx70}")
        lowered = str(cake.run_pipeline(read(EXAMPLES[0]), "cake-lower-to-nvvm{chip=sm_90}"))
        self.assertIn('features = "+ptx80"', lowered)
        with self.assertRaisesRegex(cake.CakeError, "unsupported features '\\+ptx70' for sm_90"):
            cake.compile(lowered.replace('features = "+ptx80"', 'features = "+ptx70"'), cubin=False)

    def test_tactic_script(self):
        # The tactics' transform ops come with the cake dialect: a script in the module runs as
        # the pass "transform-interpreter". The second pad refuses (already padded): an error
        # with the pass's message and notes, unless the script suppresses it.
        script = """module attributes {transform.with_named_sequence} {
  cake.kernel @k() attributes {target = "sm_80", block = array<i64: 32>, symbols = [],
                               grid = affine_map<() -> (1)>} {
    %c0 = arith.constant 0 : index
    %tile = cake.alloc_smem : !cake.smem<16x64xf32>
    %v = cake.load %tile[%c0, %c0] : !cake.smem<16x64xf32> -> f32
    cake.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(MODE) {
    ^bb0(%module: !transform.any_op):
      transform.cake.pad %module : !transform.any_op
      transform.cake.pad %module : !transform.any_op
    }
    transform.yield
  }
}
"""
        padded = str(cake.run_pipeline(script.replace("MODE", "suppress"), "transform-interpreter"))
        self.assertIn("cake.alloc_smem : !cake.smem<16x64xf32, pad = 4>", padded)
        with self.assertRaises(cake.CakeError) as caught:
            cake.run_pipeline(script.replace("MODE", "propagate"), "transform-interpreter")
        error = caught.exception.diagnostics[0]
        self.assertEqual(error.message,
                         "[tactic.not-applicable] cake-tactic-pad: no shared buffer qualifies")
        self.assertEqual([note.message for note in error.notes],
                         ["!cake.smem<16x64xf32, pad = 4>: already padded"])

    def test_bad_pipeline_raises(self):
        with self.assertRaisesRegex(cake.CakeError,
                                    "'no-such-pass' does not refer to a registered"):
            cake.run_pipeline(BAD_TARGET.replace("sm_75", "sm_80"), "no-such-pass")


class Lifetimes(unittest.TestCase):
    def test_closed_context(self):
        ctx = cake.Context()
        module = ctx.parse(read(EXAMPLES[0]))
        ctx.close()
        ctx.close()  # closing twice is fine
        self.assertTrue(ctx.closed)
        for call in (lambda: ctx.parse("module {}"), lambda: str(module),
                     lambda: ctx.verify(module), lambda: ctx.compile(module),
                     lambda: ctx.run_pipeline(module, "canonicalize")):
            with self.assertRaises(cake.ClosedError):
                call()

    def test_reused_context(self):
        with cake.Context() as ctx:
            source = read(EXAMPLES[0])
            first = ctx.parse(source)
            with self.assertRaises(cake.CakeError):
                ctx.parse(BAD_TARGET)
            second = ctx.parse(source)
            self.assertEqual(str(first), str(second))
            del first
            manifest = ctx.compile(second, cubin=False)[2]
            self.assertEqual(manifest, json.loads(translate(EXAMPLES[0], "--emit=manifest")))


class CostAndFindingsTest(unittest.TestCase):
    def test_cost_report(self):
        source = read(os.path.join(os.environ["CAKE_EXAMPLES"], "hopper_gemm.mlir"))
        report = cake.cost(source, {"M": 8192, "N": 8192, "K": 8192})
        self.assertEqual(report["schema"], "cake-cost-report")
        kernel = report["kernels"][0]
        self.assertEqual(kernel["kernel"], "hopper_gemm")
        self.assertGreater(kernel["predicted_time_ms"], 0.1)
        # Without sizes, the report says which sizes it needs instead of inventing them.
        partial = cake.cost(source)["kernels"][0]
        self.assertEqual(partial["status"], "needs_sizes")
        with self.assertRaisesRegex(cake.CakeError, "no-such-gpu"):
            cake.cost(source, "M=1,N=1,K=1", profile="no-such-gpu")

    def test_findings_carry_rule_and_hint(self):
        source = read(os.path.join(os.environ["CAKE_EXAMPLES"], "hopper_gemm.mlir"))
        broken = source.replace("tx_bytes 49152", "tx_bytes 4096")
        with self.assertRaises(cake.CakeError) as caught:
            cake.run_pipeline(broken, "cake-verify")
        findings = [d for d in caught.exception.diagnostics if d.rule]
        self.assertTrue(findings)
        self.assertEqual(findings[0].rule, "pipeline.tx-bytes")
        self.assertTrue(findings[0].hint)
        self.assertEqual(findings[0].op, "cake.pipeline.producer_commit")


if __name__ == "__main__":
    unittest.main()
