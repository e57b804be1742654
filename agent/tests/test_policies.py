"""Search policy, population (tournament, elites, diversity) and the tactic interface."""
import os
import random
import unittest

from tests import util
from cake_agent import population
from cake_agent.policies.search import SearchPolicy
from cake_agent.tactics import Tactic
from cake_agent.task import load_task, signature
from cake_agent.tools import Toolchain


class FakeMember:
    def __init__(self, mid, genome, fitness=None, status="compiled", tactics=(), generation=0, ir=""):
        self.id, self.genome, self.fitness, self.status = mid, genome, fitness, status
        self.tactics, self.generation, self.ir = tuple(tactics), generation, ir
        self.signature = signature(genome, tactics) if genome else f"x{mid}"

    viable = population.Member.viable


class SearchTest(unittest.TestCase):
    def setUp(self):
        self.task = load_task(os.path.join(util.TASKS, "vector_add.json"))

    def test_first_generation_starts_from_the_start_genome(self):
        props = SearchPolicy(self.task, random.Random(1)).propose([], 4)
        self.assertEqual(props[0].genome, self.task.start_genome())
        self.assertEqual(len({p.signature for p in props}), 4)

    def test_first_generation_explores_the_start_neighbourhood(self):
        props = SearchPolicy(self.task, random.Random(3)).propose([], 6)
        start = self.task.start_genome()
        for p in props[1:]:
            moved = [k for k in self.task.tunables if p.genome[1][k] != start[1][k]]
            self.assertIn(len(moved), (1, 2), p.signature)
            self.assertIs(p.parent_proposal, props[0])  # evolve records the start first and links them

    def test_children_are_valid_new_neighbours(self):
        members = [FakeMember(1, self.task.start_genome(), 1.0)]
        props = SearchPolicy(self.task, random.Random(2)).propose(members, 8)
        self.assertEqual(len(props), 8)
        for p in props:
            self.assertTrue(self.task.genome_ok(p.genome))
            self.assertNotEqual(p.signature, members[0].signature)
            self.assertEqual(p.ir, self.task.instantiate(p.genome))
        self.assertTrue(any(p.parent_id == 1 for p in props))

    def test_space_exhaustion(self):
        t = load_task(os.path.join(util.TASKS, "gemm.json"))  # 5 genomes
        pol = SearchPolicy(t, random.Random(0))
        first = pol.propose([], 10)
        self.assertEqual(len(first), 5)
        members = [FakeMember(i, p.genome) for i, p in enumerate(first)]
        self.assertEqual(pol.propose(members, 4), [])


class PopulationTest(unittest.TestCase):
    def test_tournament_prefers_fitter_and_ignores_failed(self):
        rng = random.Random(0)
        ms = [FakeMember(i, (0, {"A": i}), fitness=float(i)) for i in range(1, 6)]
        ms.append(FakeMember(9, (0, {"A": 9}), fitness=None, status="failed"))
        picks = [population.tournament(ms, rng).id for _ in range(300)]
        self.assertNotIn(9, picks)
        self.assertGreater(picks.count(1), picks.count(5) * 3)

    def test_without_fitness_selection_is_uniform(self):
        rng = random.Random(0)
        ms = [FakeMember(i, (0, {"A": i})) for i in range(4)]
        picks = [population.tournament(ms, rng).id for _ in range(400)]
        self.assertTrue(all(60 < picks.count(i) < 140 for i in range(4)), picks)
        self.assertEqual(population.ranked(ms), [])

    def test_elites_keep_the_best_of_each_tactic_chain(self):
        ms = [FakeMember(i, (0, {"A": i}), fitness=float(i)) for i in range(1, 6)]
        ms.append(FakeMember(7, (0, {"A": 7}), fitness=50.0, tactics=("widen",)))
        self.assertEqual([m.id for m in population.elites(ms, 2)], [1, 2, 7])

    def test_load_order_ignores_the_order_compiles_finished(self):
        # A generation's candidates are recorded as their compiles finish (the machine's load); the
        # population a seeded policy draws from must be the same either way.
        def row(i, gen, h):
            return {"id": i, "ir": "", "genome": None, "signature": h, "tactics": None, "status": "compiled",
                    "failure_class": None, "fitness": None, "generation": gen, "ir_hash": h}

        class FakeDb:
            def __init__(self, rows):
                self.rows = rows

            def candidates(self, run_id):
                return self.rows

            def compile_facts(self, cid):
                return None

        first = [row(1, 0, "c"), row(2, 0, "a"), row(3, 1, "b"), row(4, 1, "0")]
        other = [row(1, 0, "a"), row(2, 0, "c"), row(3, 1, "0"), row(4, 1, "b")]
        order = [m.ir_hash for m in population.load(FakeDb(first), 1)]
        self.assertEqual(order, ["a", "c", "0", "b"])
        self.assertEqual([m.ir_hash for m in population.load(FakeDb(other), 1)], order)

    def test_stagnation(self):
        ms = [FakeMember(1, (0, {"A": 1}), 1.0, generation=0), FakeMember(2, (0, {"A": 2}), 2.0, generation=3)]
        self.assertTrue(population.stagnant(ms))
        ms.append(FakeMember(3, (0, {"A": 3}), 0.5, generation=3))
        self.assertFalse(population.stagnant(ms))


@util.needs_tools
class TacticTest(unittest.TestCase):
    """The interface, exercised with an upstream cake-opt pass as a stand-in (no CAKE tactic exists yet)."""

    def test_apply_precondition_and_no_change(self):
        task = load_task(os.path.join(util.TASKS, "vector_add.json"))
        tools = Toolchain(util.BIN)
        ir = task.instantiate(task.start_genome())
        tac = Tactic("canon", "builtin.module(canonicalize)", requires_ops=["cake.load"])
        out, why = tac.apply(tools, ir)
        self.assertIsNone(why)
        self.assertNotIn("scf.for", out)  # the one-trip loop is gone
        self.assertIn("cake.kernel @vector_add", out)
        self.assertEqual(tac.apply(tools, out)[1], "no change")
        self.assertEqual(Tactic("t", "builtin.module(canonicalize)", forbids_ops=["cake.load"]).apply(tools, ir)[1],
                         "precondition false")
        self.assertTrue(Tactic("bad", "builtin.module(no-such-pass)").apply(tools, ir)[1].startswith("tactic_error"))
        # The op names come from cake-opt's structured view, not from the text: an op name in a
        # comment or a string does not count, a nested op does.
        commented = "// cake.wgmma is not used here\n" + ir
        self.assertEqual(Tactic("t", "builtin.module(canonicalize)", requires_ops=["cake.wgmma"]).apply(
            tools, commented)[1], "precondition false")
        self.assertIsNone(Tactic("t", "builtin.module(canonicalize)", requires_ops=["cake.store"]).apply(
            tools, ir)[1])


if __name__ == "__main__":
    unittest.main()
