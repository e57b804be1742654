"""The population of a run: members loaded from the database, elitism with diversity, tournaments.

Fitness is a time in ms (lower is better) or None. Without any fitness (model-only without a cost
model) nothing is ranked: selection is uniform over the candidates that compiled, and says so.
"""
import json


class Member:
    """One evaluated candidate as the policies see it."""

    def __init__(self, row, facts=None):
        self.id = row["id"]
        self.ir = row["ir"]
        g = json.loads(row["genome"]) if row["genome"] else None
        self.genome = (g[0], g[1]) if g else None
        self.signature = row["signature"]
        self.tactics = tuple(json.loads(row["tactics"] or "[]"))
        self.status = row["status"]
        self.failure_class = row["failure_class"]
        self.fitness = row["fitness"]
        self.generation = row["generation"]
        self.ir_hash = row["ir_hash"]
        self.facts = facts

    @property
    def viable(self):
        """Compiled (and, where measured, correct): a possible parent."""
        return self.status in ("compiled", "measured", "pending_gpu")


def load(db, run_id):
    """The run's members by generation, then IR hash: not by database id, since a generation's
    candidates are recorded in the order their compiles finish, and that order (the machine's load)
    must not steer a seeded search (tournaments pick by position, ties in fitness keep it)."""
    members = [Member(r, db.compile_facts(r["id"])) for r in db.candidates(run_id)]
    return sorted(members, key=lambda m: (m.generation, m.ir_hash))


def ranked(members):
    """Members with a fitness, fastest first."""
    return sorted((m for m in members if m.fitness is not None), key=lambda m: m.fitness)


def elites(members, k):
    """The ``k`` fastest, plus the fastest of every distinct tactic chain (so a new tactic chain is
    not crowded out by many parameter variants of an older one)."""
    order = ranked(members)
    chosen = order[:k]
    best_by_chain = {}
    for m in order:
        best_by_chain.setdefault(m.tactics, m)
    for m in best_by_chain.values():
        if m not in chosen:
            chosen.append(m)
    return chosen


def tournament(members, rng, size=3):
    """Tournament selection among viable members (uniform when none has a fitness); None if empty."""
    pool = [m for m in members if m.viable]
    if not pool:
        return None
    contenders = [rng.choice(pool) for _ in range(min(size, len(pool)))]
    scored = [m for m in contenders if m.fitness is not None]
    return min(scored, key=lambda m: m.fitness) if scored else contenders[0]


def has_fitness(members):
    return any(m.fitness is not None for m in members)


def stagnant(members, generations=2):
    """True when the best fitness did not improve during the last ``generations`` generations."""
    order = ranked(members)
    if not order or not members:
        return False
    last = max(m.generation for m in members)
    return order[0].generation <= last - generations
