"""Built-in search: parameter mutations over the task's tunables (and tactics, when any are loaded).

The first generation is the start genome, each other seed with the start's values, tactic
children of the start and its neighbours (one or two tunables moved). Each later child comes from a tournament-selected parent: one or two tunables move to a neighbouring value
(or, less often, a random one); with tactics loaded, a child may instead append an applicable tactic
to its parent's chain, trying first the tactics with the best statistics for the task's class
(learn.py; ``stats`` is a callable returning them, re-read every generation). On stagnation (no
better candidate for two generations) a child of a slower parent is, half of the time, steered by
the fastest member: it takes the fastest member's next tactic or one or two of the tunables in which
they differ, and the proposal's note says why ("hint: ..."). Genomes already tried in the run are never proposed again; when no new genome
can be found the space is exhausted and ``propose`` returns fewer (or no) proposals.
"""
import itertools
import random
import types

from .. import population
from .. import tactics as tactics_mod
from ..task import signature
from . import Proposal


class SearchPolicy:
    name = "search"

    def __init__(self, task, rng, toolchain=None, tactics=(), tactic_rate=0.3, tries=200, stats=None):
        self.task, self.rng, self.tools = task, rng, toolchain
        self.tactics, self.tactic_rate, self.tries = list(tactics), tactic_rate, tries
        self.stats_fn, self.stats = stats, {}
        self.best = None  # the fastest member while the population stagnates, else None
        self.hints = 0

    def propose(self, members, n):
        seen = {m.signature for m in members}
        out = []
        self.stats = self.stats_fn() if self.stats_fn else {}
        best = population.ranked(members)[:1]
        self.best = best[0] if best and population.stagnant(members) else None
        if not members:
            g = self.task.start_genome()
            out.append(self._proposal(g, (), None))
            seen.add(out[0].signature)
            for other in range(1, len(self.task.seed_texts)):  # every seed is a starting point
                alt = (other, dict(g[1]))
                if len(out) < n and signature(alt) not in seen and self.task.genome_ok(alt):
                    out.append(self._proposal(alt, (), None))
                    seen.add(out[-1].signature)
            # Drawn first: the neighbours do not depend on how many draws the tactic order took
            # (tactic statistics differ between runs; the same --rng-seed gives the same neighbours).
            neighbour_rng = random.Random(self.rng.random())
            out += self._seed_tactic_children(out[0], seen, n // 2)
            out += self._seed_neighbours(out[0], seen, n - len(out), neighbour_rng)
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
        if self.best is not None and self.best.id != parent.id and self.rng.random() < 0.5:
            prop = self._hinted_child(parent, seen)
            if prop is not None:
                return prop
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

    def _hinted_child(self, parent, seen):
        """A child of ``parent`` moved toward the fastest member ``self.best`` (stagnation)."""
        best = self.best
        fit = f"{best.fitness:.4g} ms" if best.fitness is not None else "?"
        pfit = f"{parent.fitness:.4g} ms" if parent.fitness is not None else "no fitness"
        extra = [t for t in best.tactics if t not in parent.tactics]
        if extra and self.tools:
            tac = next((t for t in self.tactics if t.name == extra[0]), None)
            chain = parent.tactics + (extra[0],)
            if tac is not None and signature(parent.genome, chain) not in seen:
                ir, _why = tac.apply(self.tools, parent.ir)
                if ir is not None:
                    prop = self._proposal(parent.genome, chain, parent.id, ir)
                    prop.note = (f"hint: candidate {best.id} ({fit}) is faster than {parent.id} ({pfit}) "
                                 f"and applies tactic {extra[0]}")
                    self.hints += 1
                    return prop
        if best.genome is None or parent.tactics:
            return None
        diff = [k for k in self.task.tunables if parent.genome[1].get(k) != best.genome[1].get(k)]
        if not diff:
            return None
        for _ in range(5):
            moved = self.rng.sample(diff, min(len(diff), self.rng.choice((1, 1, 2))))
            params = dict(parent.genome[1])
            params.update({k: best.genome[1][k] for k in moved})
            g = (parent.genome[0], params)
            if signature(g) not in seen and self.task.genome_ok(g):
                prop = self._proposal(g, (), parent.id)
                prop.note = (f"hint: candidate {best.id} ({fit}) is faster than {parent.id} ({pfit}); it differs in "
                             + ", ".join(f"{k} {parent.genome[1][k]}->{best.genome[1][k]}" for k in moved))
                self.hints += 1
                return prop
        return None

    def _seed_tactic_children(self, seed, seen, most):
        """Up to ``most`` tactic children of the seed proposal, in the seed's own generation (their
        ``parent_proposal``: evolve records the seed first and links them to it), so that a batch
        run's first GPU call already measures rewrites, not only the seed's parameters."""
        if not (self.tactics and self.tools):
            return []
        parent = types.SimpleNamespace(genome=seed.genome, tactics=(), id=None, ir=seed.ir)
        out = []
        while len(out) < most:
            prop = self._tactic_child(parent, seen)
            if prop is None:
                break
            prop.parent_proposal = seed
            seen.add(prop.signature)
            out.append(prop)
        return out

    def _seed_neighbours(self, seed, seen, most, rng):
        """Up to ``most`` mutations of the seed proposal (one or two tunables moved), in the seed's
        generation and linked to it: the start is the task author's best guess (for a library
        bucket, the sweep's best configuration), so its neighbourhood comes before the rest of the
        space, which ``propose`` samples only when the neighbours run out."""
        out = []
        for _ in range(self.tries):
            if len(out) >= most:
                break
            genome = self.mutate(seed.genome, rng)
            if genome is None or signature(genome) in seen:
                continue
            prop = self._proposal(genome, (), None)
            prop.parent_proposal = seed
            seen.add(prop.signature)
            out.append(prop)
        return out

    def _tactic_child(self, parent, seen):
        for tac in tactics_mod.order(self.tactics, self.stats, self.rng):
            chain = parent.tactics + (tac.name,)
            if signature(parent.genome, chain) in seen:
                continue
            ir, _why = tac.apply(self.tools, parent.ir)
            if ir is not None:
                return self._proposal(parent.genome, chain, parent.id, ir)
        return None

    def mutate(self, genome, rng=None):
        """A valid neighbour of ``genome`` (None if 20 attempts found none); ``rng``: the random
        source (default the policy's)."""
        rng = rng or self.rng
        seed, params = genome
        names = list(self.task.tunables)
        for _ in range(20):
            new = dict(params)
            new_seed = seed
            if len(self.task.seed_texts) > 1 and rng.random() < 0.1:
                new_seed = rng.randrange(len(self.task.seed_texts))
            for name in rng.sample(names, min(len(names), rng.choice((1, 1, 2)))) if names else ():
                vals = self.task.tunables[name]
                i = vals.index(new[name])
                if rng.random() < 0.75 and len(vals) > 1:
                    j = min(max(i + rng.choice((-1, 1)), 0), len(vals) - 1)
                else:
                    j = rng.randrange(len(vals))
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
