"""Environment health before blame: the seed must pass before a run starts.

A task's seed is known good; when it does not verify, compile or (with a GPU here) pass its check,
the fault is the machine's or the task's (a missing ptxas, a broken build, a wrong reference), not a
candidate's. Such a run stops before it starts, with ``EnvironmentFailure`` (exit code 7) naming the
step, and records no candidate failure that learning could turn into a rule. A task without a
declared interface gets the seed's here (interface.from_manifest).
"""
import json

from . import interface as interface_mod
from .evaluator import Evaluator


class EnvironmentFailure(Exception):
    """The environment cannot evaluate the task's seed."""


def check_seed(task, toolchain, backend, workdir):
    """Evaluates the start candidate like any other (verify, cost, compile; measure when the backend
    measures here); raises EnvironmentFailure if it fails. Returns the evaluation."""
    ir = task.instantiate(task.start_genome())
    ev = Evaluator(task, toolchain, workdir).prepare(ir)
    if ev.status == "failed":
        raise EnvironmentFailure(_describe("the seed", ev))
    if task.interface is None:
        try:
            with open(ev.compile["manifest"]) as f:
                task.interface = interface_mod.from_manifest(json.load(f), task.kernel)
        except (OSError, ValueError, KeyError) as e:
            raise EnvironmentFailure(f"the seed's manifest is unreadable: {e}") from None
        problems = interface_mod.problems(task.interface.data, "the seed's interface")
        if problems:
            raise EnvironmentFailure("; ".join(problems) + " (declare the task's interface)")
    if getattr(backend, "measures_in_run", False):  # local, ray with GPUs: a GPU check now (batch: later)
        backend.measure(task, toolchain, ev)
        if ev.status == "failed":
            raise EnvironmentFailure(_describe("the seed's GPU check", ev))
    return ev


def _describe(what, ev):
    f = ev.failure or {}
    detail = " ".join((f.get("detail") or "").split())[:400]
    return f"{what} fails at {f.get('step')} ({f.get('class')}): {detail}"

