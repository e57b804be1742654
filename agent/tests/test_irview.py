"""The harness reads IR through its structured view (irview.py, cake-opt --cake-print-ir-json): the
bindings and cake-opt give the same view, IR that does not parse and a missing cake-opt fail
cleanly, and learn's features and the idioms equal those of the regex readers they replaced, on
examples/*.mlir (tests/data/ir_reader_reference.json, recorded from them)."""
import glob
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import unittest

from tests import util
from cake_agent import idioms, irview, learn
from cake_agent.db import Database
from cake_agent.tools import ToolMissing

CAKE_OPT = os.path.join(util.BIN, "cake-opt")
EXAMPLES = sorted(glob.glob(os.path.join(util.ROOT, "examples", "*.mlir")))
REFERENCE = os.path.join(util.AGENT, "tests", "data", "ir_reader_reference.json")
# `cake idioms` as run on the examples: the default, and every dialect.
MINES = {"cake": {"min_support": 2}, "all": {"min_support": 3, "dialects": "*", "max_len": 3}}


def _text(path):
    with open(path) as f:
        return f.read()


def comparable_features(feats, view):
    """``feats`` without what the readers see differently by design: ``op:builtin.module`` (the
    view lists the module's ops, the generic form printed the module too) and the result types of
    ops with regions (the generic form's line-based reader never saw them; the view has them)."""
    with_regions = {op["name"] for op in irview.walk(view["ops"]) if op["regions"]}

    def kept(feature):
        op, typed, _ = feature[3:].partition("->")
        return feature != "op:builtin.module" and not (typed and op in with_regions)
    return sorted(filter(kept, feats))


def comparable_idiom(idiom, names):
    """An idiom in one line, as both readers give it: each op's operands sorted (the view lists them
    in the op's operand order, the text reader in the order the custom syntax writes them), without
    types (the view writes an op's function type, the text reader its trailing type list), and the
    example's first line only (the view has no end location)."""
    pattern = []
    for part in idiom.pattern:
        op, _, args = part.split(" : ")[0].partition("(")
        args, _, regions = args.partition(")")
        pattern.append(f"{op}({','.join(sorted(args.split(',')))}){regions}")
    ex = idiom.example
    return (f"{idiom.support}{'' if idiom.connected else ' (not connected)'}: {' ; '.join(pattern)} | "
            f"{' '.join(names[c] for c in sorted(idiom.candidates))} | e.g. {names[ex['candidate']]}:{ex['lines'][0]}")


def examples_db(folder):
    """A database with every example as a passing candidate; {candidate id: example name}."""
    db = Database(os.path.join(folder, "examples.db"))
    db.conn.execute("INSERT INTO runs (id, task, backend, policy, status) VALUES (1, 'ex', 'model-only', 'search', 'done')")
    names = {}
    for path in EXAMPLES:
        ir = _text(path)
        cur = db.conn.execute("INSERT INTO candidates (run_id, generation, ir_hash, ir, status) VALUES (1, 0, ?, ?, "
                              "'compiled')", (hashlib.sha256(ir.encode()).hexdigest(), ir))
        names[cur.lastrowid] = os.path.basename(path)[:-len(".mlir")]
    return db, names


def summary(features_of, mine):
    """What the reference holds, by the given readers: ``features_of(ir)``, ``mine(db, **options)``."""
    out = {"examples": {}, "idioms": {}}
    for path in EXAMPLES:
        ir = _text(path)
        out["examples"][os.path.basename(path)] = {
            "sha256": hashlib.sha256(ir.encode()).hexdigest(),
            "features": comparable_features(features_of(ir), irview.read(ir, CAKE_OPT))}
    with tempfile.TemporaryDirectory() as d:
        db, names = examples_db(d)
        for key, options in MINES.items():
            out["idioms"][key] = [comparable_idiom(i, names) for i in mine(db, **options)[0]]
        db.close()
    return out


def current():
    return summary(lambda ir: learn.features(ir, CAKE_OPT), lambda db, **kw: idioms.mine(db, cake_opt=CAKE_OPT, **kw))


@util.needs_tools
class SameResultsTest(unittest.TestCase):
    def test_features_and_idioms_equal_the_regex_readers(self):
        with open(REFERENCE) as f:
            reference = json.load(f)
        now = current()
        changed = [n for n, e in now["examples"].items() if reference["examples"].get(n, {}).get("sha256") != e["sha256"]]
        if changed:
            self.fail(f"examples changed or added since the reference was recorded: {changed}; check the "
                      "readers' results on them and record it again: python3 -m tests.test_irview --record")
        for name, e in now["examples"].items():
            self.assertEqual(e["features"], reference["examples"][name]["features"], name)
        for key in MINES:
            self.assertEqual(now["idioms"][key], reference["idioms"][key], key)
        self.assertGreater(len(reference["idioms"]["cake"]), 20)  # the comparison says something

    def test_what_the_view_adds(self):
        """The differences comparable_* set aside: a loop's result type, the op's operand order and
        its function type, every one read from the IR's structure."""
        softmax = _text(os.path.join(util.ROOT, "examples", "softmax.mlir"))
        self.assertIn("op:scf.for->f32", learn.features(softmax, CAKE_OPT))
        self.assertNotIn("op:builtin.module", learn.features(softmax, CAKE_OPT))
        gemm = idioms.parse(_text(os.path.join(util.ROOT, "examples", "hopper_gemm.mlir")), CAKE_OPT)
        wgmma = [op for block in idioms._blocks(gemm) for op in block if op.name == "cake.wgmma"]
        self.assertTrue(wgmma)
        # The accumulator is the first operand (the op's definition); the custom syntax writes it last.
        self.assertTrue(any(op.operands[0] in prev.results for prev, op in zip(wgmma, wgmma[1:])))
        self.assertTrue(wgmma[0].types.endswith("-> vector<Nxf32>"), wgmma[0].types)


@util.needs_tools
class ReadersTest(unittest.TestCase):
    def test_bindings_and_cake_opt_give_the_same_view(self):
        packages = os.path.join(os.path.dirname(util.BIN), "python_packages")
        if not os.path.isdir(os.path.join(packages, "cake")):
            self.skipTest(f"the Python bindings are not built in {packages}")
        code = ("import json, sys\nfrom cake_agent import irview\nimport cake\n"
                "print(json.dumps([irview.from_bindings(cake, open(p).read()) for p in sys.argv[1:]]))")
        res = subprocess.run([sys.executable, "-c", code, *EXAMPLES], capture_output=True, text=True,
                             env=dict(os.environ, PYTHONPATH=os.pathsep.join([packages, util.AGENT])))
        if res.returncode != 0 and "ImportError" in res.stderr:
            self.skipTest(f"the bindings do not load in this Python: {res.stderr.strip()[-200:]}")
        self.assertEqual(res.returncode, 0, res.stderr)
        via_cake_opt = [irview.from_cake_opt(CAKE_OPT, _text(p))[0] for p in EXAMPLES]
        self.assertEqual(json.loads(res.stdout), via_cake_opt)
        self.assertTrue(all(via_cake_opt))

    def test_ir_that_does_not_parse(self):
        bad = "cake.kernel @k() {\n  %v = cake.load %x[%i] : !cake.tensor<[N], f32> -> f32\n}\n"
        self.assertIsNone(irview.read(bad, CAKE_OPT))
        self.assertEqual(learn.features(bad, CAKE_OPT), set())  # no rule can flag what does not parse
        self.assertEqual(idioms.parse(bad, CAKE_OPT), [])

    def test_a_missing_cake_opt_is_named(self):
        missing = os.path.join(tempfile.gettempdir(), "no-such-dir", "cake-opt")
        if irview._bindings() is not None:
            self.skipTest("the bindings read the IR here: cake-opt is not needed")
        with self.assertRaises(ToolMissing) as cm:
            irview.read("// nothing\n", missing)
        self.assertIn(missing, str(cm.exception))
        with self.assertRaises(ToolMissing):
            learn.features("// nothing\n", None)

    def test_plain_attributes_come_as_json_values(self):
        view = irview.read(_text(os.path.join(util.ROOT, "examples", "vector_add.mlir")), CAKE_OPT)
        kernel = view["ops"][0]
        self.assertEqual(kernel["values"]["block"], [256])
        self.assertEqual(kernel["values"]["symbols"], ["N"])
        self.assertNotIn("grid", kernel["values"])          # an affine map: printed only
        self.assertIn("grid", kernel["attributes"])

    def test_locations_are_lines_of_the_ir_as_given(self):
        view = irview.read("// one\n\nfunc.func @f() {\n  return\n}\n", CAKE_OPT)
        self.assertEqual([(op["name"], irview.line(op)) for op in irview.walk(view["ops"])],
                         [("func.func", 3), ("func.return", 4)])
        elsewhere = irview.read('func.func @f() {\n  return loc("k.py":7:1)\n}\n', CAKE_OPT)
        self.assertIsNone(irview.line(list(irview.walk(elsewhere["ops"]))[1]))



def record():
    """Writes the reference from the current readers (after checking their results on changed
    examples by hand)."""
    doc = {"recorded_from": "learn.features and idioms.mine, compared as comparable_features and "
                            "comparable_idiom say; first from the regex readers of commit ef2613a "
                            "(learn's on the generic form, as `cake learn rules` read the IR)",
           **current()}
    with open(REFERENCE, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    if "--record" in sys.argv:
        record()
    else:
        unittest.main()
