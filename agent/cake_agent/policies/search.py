"""Built-in search: parameter mutations over the task's tunables (and tactics, when any are loaded).

Each child comes from a tournament-selected parent: one or two tunables move to a neighbouring value
(or, less often, a random one); with tactics loaded, a child may instead append an applicable tactic
to its parent's chain. Genomes already tried in the run are never proposed again; when no new genome
can be found the space is exhausted and ``propose`` returns fewer (or no) proposals.
"""
import itertools

from .. import population
from ..task import signature
from . import Proposal


class SearchPolicy:
    name = "search"

    def __init__(self, task, rng, toolchain=None, tactics=(), tactic_rate=0.3, tries=200):
        self.task, self.rng, self.tools = task, rng, toolchain
        self.tactics, self.tactic_rate, self.tries = list(tactics), tactic_rate, tries

    def propose(self, members, n):
        seen = {m.signature for m in members}
        out = []
        if not members:
            g = self.task.start_genome()
            out.append(self._proposal(g, (), None))
            seen.add(out[0].signature)
        for _ in range(self.tries):
            if len(out) >= n:
                break
            parent = population.tournament(members, self.rng)
            prop = self._child(parent, seen)
            if prop is not None:
                seen.add(prop.signature)
                out.append(prop)
        while len(out) < n:  # parents exhausted their neighbourhoods: sample the rest of the space
            prop = self._unseen(seen)
            if prop is None:
                break
            seen.add(prop.signature)
            out.append(prop)
        return out

    def _proposal(self, genome, tactics, parent_id, ir=None):
        ir = ir if ir is not None else self.task.instantiate(genome)
        return Proposal(ir, self.name, parent_id, genome, tactics, signature(genome, tactics))

    def _child(self, parent, seen):
        if parent is None or parent.genome is None:
            return None
        if self.tactics and self.tools and self.rng.random() < self.tactic_rate:
            prop = self._tactic_child(parent, seen)
            if prop is not None:
                return prop
        genome = self.mutate(parent.genome)
        if genome is None or signature(genome, parent.tactics) in seen:
            return None
        if parent.tactics:  # re-apply the parent's chain to the mutated parameters
            ir = self.task.instantiate(genome)
            for name in parent.tactics:
                tac = next((t for t in self.tactics if t.name == name), None)
                ir = tac.apply(self.tools, ir)[0] if tac and ir else None
            if ir is None:
                return None
            return self._proposal(genome, parent.tactics, parent.id, ir)
        return self._proposal(genome, (), parent.id)

    def _tactic_child(self, parent, seen):
        for tac in self.rng.sample(self.tactics, len(self.tactics)):
            chain = parent.tactics + (tac.name,)
            if signature(parent.genome, chain) in seen:
                continue
            ir, _why = tac.apply(self.tools, parent.ir)
            if ir is not None:
                return self._proposal(parent.genome, chain, parent.id, ir)
        return None

    def mutate(self, genome):
        """A valid neighbour of ``genome`` (None if 20 attempts found none)."""
        seed, params = genome
        names = list(self.task.tunables)
        for _ in range(20):
            new = dict(params)
            new_seed = seed
            if len(self.task.seed_texts) > 1 and self.rng.random() < 0.1:
                new_seed = self.rng.randrange(len(self.task.seed_texts))
            for name in self.rng.sample(names, min(len(names), self.rng.choice((1, 1, 2)))) if names else ():
                vals = self.task.tunables[name]
                i = vals.index(new[name])
                if self.rng.random() < 0.75 and len(vals) > 1:
                    j = min(max(i + self.rng.choice((-1, 1)), 0), len(vals) - 1)
                else:
                    j = self.rng.randrange(len(vals))
                new[name] = vals[j]
            g = (new_seed, new)
            if g != genome and self.task.genome_ok(g):
                return g
        return None

    def _unseen(self, seen):
        names = list(self.task.tunables)
        size = len(self.task.seed_texts)
        for k in names:
            size *= len(self.task.tunables[k])
        if size > 50000:  # too large to enumerate: random samples
            space = ((self.rng.randrange(len(self.task.seed_texts)),
                      {k: self.rng.choice(self.task.tunables[k]) for k in names}) for _ in range(1000))
        else:
            space = [(s, dict(zip(names, combo))) for s in range(len(self.task.seed_texts))
                     for combo in itertools.product(*(self.task.tunables[k] for k in names))]
            self.rng.shuffle(space)
        for g in space:
            if signature(g) not in seen and self.task.genome_ok(g):
                return self._proposal(g, (), None)
        return None
