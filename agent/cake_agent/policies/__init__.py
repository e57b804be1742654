"""Policies propose candidates: built-in search (search.py) and an LLM (llm.py).

A policy has ``name`` and ``propose(members, n)`` returning up to ``n`` Proposals; it never evaluates.
"""


class Proposal:
    """A candidate to evaluate: its IR and where it came from."""

    def __init__(self, ir, policy, parent_id=None, genome=None, tactics=(), signature=None, note=None):
        self.ir = ir
        self.policy = policy
        self.parent_id = parent_id
        self.genome = genome
        self.tactics = tuple(tactics)
        self.signature = signature
        self.note = note


class PolicyAbort(RuntimeError):
    """The policy cannot go on (e.g. the LLM endpoint is unreachable); the run stops cleanly."""
