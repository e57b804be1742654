"""cake idioms: frequent op sequences of passing candidates, on a small database built here (the IR
read through cake-opt's structured view, irview.py)."""
import hashlib
import json
import os
import unittest

from tests import util
from cake_agent import idioms

CAKE_OPT = os.path.join(util.BIN, "cake-opt")

HEAD = """cake.kernel @k(%a: !cake.tensor<[N], f32> {cake.name = "a"},
               %b: !cake.tensor<[N], f32> {cake.name = "b"})
    attributes {target = "sm_90a", block = array<i64: BLOCK>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv BLOCK)>} {
"""

# Elementwise: thread_id, block_id, then load -> (arith) -> store.
ELEMENTWISE = HEAD + """  %tid = cake.thread_id x
  %bid = cake.block_id x
  %cb = arith.constant BLOCK : index
  %base = arith.muli %bid, %cb : index
  %i = arith.addi %base, %tid : index
  %v = cake.load %a[%i] masked : !cake.tensor<[N], f32> -> f32
  %w = arith.mulf %v, %v : f32
  cake.store %w, %b[%i] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
"""

# Staging through shared memory in a loop: the loop body is a block of its own, and the loop
# separates the ops before it from those after it.
STAGED = HEAD + """  %tid = cake.thread_id x
  %bid = cake.block_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant BLOCK : index
  %s = cake.alloc_smem : !cake.smem<BLOCKxf32>
  scf.for %j = %c0 to %cn step %c1 {
    %v = cake.load %a[%j] masked : !cake.tensor<[N], f32> -> f32
    cake.store %v, %s[%j] : f32, !cake.smem<BLOCKxf32>
    cake.barrier
  }
  cake.barrier
  %r = cake.load %s[%tid] : !cake.smem<BLOCKxf32> -> f32
  cake.store %r, %b[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
"""

# Only in failed candidates: must never be reported.
FAILED = HEAD + """  cake.wgmma.fence
  cake.wgmma.commit
  cake.wgmma.wait
  cake.return
}
"""


@util.needs_tools
class IdiomsTest(util.TempDir):
    def setUp(self):
        super().setUp()
        self.db_path = os.path.join(self.tmp, "i.db")
        self.db = util.open_db(self, self.db_path)
        c = self.db.conn
        c.execute("INSERT INTO runs (id, task, backend, policy, status) VALUES (1, 'ew', 'model-only', 'search', 'done')")
        c.execute("INSERT INTO runs (id, task, backend, policy, status) VALUES (2, 'staged', 'local', 'search', 'done')")
        self.ids = {}
        for block in (64, 128, 256, 512):
            self.add(1, ELEMENTWISE.replace("BLOCK", str(block)), "compiled", "ew")
        for block in (32, 64, 128):
            self.add(2, STAGED.replace("BLOCK", str(block)), "measured", "staged")
        self.add(2, STAGED.replace("BLOCK", "16"), "failed", "staged")
        for block in (1, 2, 3, 4):
            self.add(2, FAILED.replace("BLOCK", str(block)), "failed", "staged")
        self.add(2, ELEMENTWISE.replace("BLOCK", "64"), "measured", "ew-again")  # same IR as in run 1

    def add(self, run, ir, status, tag):
        cur = self.db.conn.execute(
            "INSERT INTO candidates (run_id, generation, ir_hash, ir, status) VALUES (?, 0, ?, ?, ?)",
            (run, hashlib.sha256(ir.encode()).hexdigest(), ir, status))
        self.ids.setdefault(tag, []).append(cur.lastrowid)

    def by_pattern(self, found):
        return {" ; ".join(i.pattern): i for i in found}

    def mine(self, **options):
        return idioms.mine(self.db, cake_opt=CAKE_OPT, **options)

    def test_parse_blocks_regions_and_operands(self):
        top = idioms.parse(STAGED.replace("BLOCK", "32"), CAKE_OPT)
        self.assertEqual([op.name for op in top], ["cake.kernel"])
        body = top[0].regions[0][0]
        self.assertEqual([op.name for op in body if op.dialect == "cake"],
                         ["cake.thread_id", "cake.block_id", "cake.alloc_smem", "cake.barrier", "cake.load",
                          "cake.store", "cake.return"])
        loop = next(op for op in body if op.name == "scf.for")
        self.assertEqual([op.name for op in loop.regions[0][0]], ["cake.load", "cake.store", "cake.barrier"])
        self.assertEqual([op.line for op in loop.regions[0][0]], [12, 13, 14])  # the elided scf.yield is not shown
        load, store = loop.regions[0][0][:2]
        alloc = next(op for op in body if op.name == "cake.alloc_smem")
        # %v (the load's), %s (the alloc's), %j (the loop's induction variable: no op's result).
        self.assertEqual(store.operands[:2], [load.results[0], alloc.results[0]])
        self.assertEqual(len(store.operands), 3)
        self.assertFalse(any(store.operands[2] in op.results for block in idioms._blocks(top) for op in block))
        self.assertEqual(store.types, "(f32, !cake.smem<Nxf32>, index) -> ()")  # sizes abstracted, f32 kept
        # scf.if without else: one region, as written.
        top = idioms.parse(ELEMENTWISE.replace("BLOCK", "64").replace(
            "  cake.return", "  %p = arith.cmpi ult, %i, %cb : index\n  scf.if %p {\n    cake.barrier\n  }\n"
            "  cake.return"), CAKE_OPT)
        branch = next(op for op in top[0].regions[0][0] if op.name == "scf.if")
        self.assertEqual(len(branch.regions), 1)

    def test_support_counts_distinct_passing_candidates(self):
        found, scope = self.mine(min_support=3)
        self.assertEqual(scope["candidates"], 7)  # 4 + 3 passing; the repeated IR counts once
        got = self.by_pattern(found)
        staged = got["cake.load(_,_) ; cake.store($0,_,_) ; cake.barrier()"]
        self.assertEqual(staged.support, 3)
        self.assertEqual(staged.score, 9)
        self.assertFalse(staged.connected)  # the barrier uses no result of the window
        self.assertEqual(staged.tasks, {"staged"})
        self.assertEqual(sorted(staged.candidates), self.ids["staged"][:3])  # not the failed one
        ex = staged.example
        self.assertEqual(ex["text"][1], "cake.store %v, %s[%j] : f32, !cake.smem<32xf32>")
        self.assertEqual(ex["lines"], [12, 14])
        both = got["cake.thread_id() ; cake.block_id()"]
        self.assertEqual(both.support, 7)
        self.assertEqual(both.tasks, {"ew", "staged"})  # the repeated IR of run 2 was counted in run 1
        # Nothing from failed candidates; the loop separates alloc_smem from the barrier after it.
        self.assertFalse(any("wgmma" in p for p in got))
        self.assertFalse(any(p.startswith("cake.alloc_smem() ; cake.barrier()") for p in got))
        # Ranked by support x length.
        scores = [i.score for i in found]
        self.assertEqual(scores, sorted(scores, reverse=True))

    def test_min_support_run_filter_and_closed_patterns(self):
        found, _ = self.mine(min_support=4)
        self.assertTrue(all(i.support >= 4 for i in found))
        self.assertNotIn("cake.load(_,_) ; cake.store($0,_,_) ; cake.barrier()", self.by_pattern(found))
        found, scope = self.mine(run=1, min_support=4)
        self.assertEqual(scope["candidates"], 4)
        got = self.by_pattern(found)
        # Closed: "load ; store" (support 4) is inside the longer ew sequence of the same support.
        self.assertIn("cake.thread_id() ; cake.block_id() ; cake.load(_,_) ; cake.store(_,_,_) ; cake.return()", got)
        self.assertNotIn("cake.load(_,_) ; cake.store(_,_,_)", got)
        found, _ = self.mine(run=1, min_support=4, closed=False)
        self.assertIn("cake.load(_,_) ; cake.store(_,_,_)", self.by_pattern(found))

    def test_all_dialects_types_and_connected(self):
        found, _ = self.mine(run=1, min_support=4, dialects="*", connected=True, types=True, max_len=3)
        got = self.by_pattern(found)
        # Each op's function type, as the generic form writes it.
        self.assertIn("cake.load(_,_) : (!cake.tensor<[N], f32>, index) -> f32 ; arith.mulf($0,$0) : (f32, f32) -> f32 ; "
                      "cake.store($1,_,_) : (f32, !cake.tensor<[N], f32>, index) -> ()", got)
        self.assertTrue(all(i.connected for i in found))

    def test_cli_text_and_json(self):
        rc, out, err = util.run_cli("idioms", "--db", self.db_path, "--min-support", "3", "--top", "2", "--bin", util.BIN)
        self.assertEqual(rc, 0, err)
        self.assertIn("7 passing candidates", out)
        self.assertIn("support 7 x length", out)
        self.assertIn("e.g. candidate", out)
        rc, out, err = util.run_cli("idioms", "--db", self.db_path, "--json", "--run", "2", "--bin", util.BIN)
        self.assertEqual(rc, 0, err)
        doc = json.loads(out)
        self.assertEqual(doc["scope"]["candidates"], 4)  # run 2: 3 staged + the repeated elementwise
        first = doc["idioms"][0]
        self.assertEqual(set(first), {"pattern", "length", "support", "score", "connected", "tasks", "candidates",
                                      "example"})
        rc, out, _ = util.run_cli("idioms", "--db", self.db_path, "--min-support", "50", "--bin", util.BIN)
        self.assertIn("no idiom reaches that support", out)

    def test_ir_that_does_not_parse_and_a_missing_cake_opt(self):
        """A passing candidate cake-opt cannot read adds no op (it still counts as read); without
        cake-opt (or the bindings) the command says so in one line, exit 4."""
        self.add(1, "cake.kernel @k() {\n  %v = cake.load %x[%i]\n}\n", "compiled", "garbage")
        found, scope = self.mine(min_support=3)
        self.assertEqual(scope["candidates"], 8)
        self.assertEqual(self.by_pattern(found)["cake.thread_id() ; cake.block_id()"].support, 7)
        if idioms.irview._bindings() is not None:
            self.skipTest("the bindings read the IR here: cake-opt is not needed")
        rc, out, err = util.run_cli("idioms", "--db", self.db_path, "--bin", os.path.join(self.tmp, "nobin"))
        self.assertEqual(rc, 4)
        self.assertIn("missing tool binary", err)
        self.assertIn("cake-opt", err)
        self.assertNotIn("Traceback", err)


if __name__ == "__main__":
    unittest.main()
