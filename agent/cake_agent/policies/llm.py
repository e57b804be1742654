"""The LLM policy: an OpenAI-compatible chat endpoint proposes whole kernels in CAKE IR.

Configured by environment variables: CAKE_LLM_BASE_URL (e.g. http://host:8000/v1), CAKE_LLM_MODEL,
CAKE_LLM_API_KEY (optional), CAKE_LLM_TIMEOUT (seconds, default 120). The prompt carries the task,
the parent's IR and compact feedback (feedback.py), the last failed proposal's feedback, and on
stagnation the best candidate's feedback.
The answer must contain the IR in a fenced block (```mlir ... ``` or ``` ... ```); anything else is a
malformed answer, recorded as ``llm_malformed``. An unreachable endpoint is ``llm_unreachable``; after
``max_failures`` consecutive failures the policy raises PolicyAbort.
"""
import json
import os
import re
import urllib.error
import urllib.request

from .. import feedback, population
from ..evaluator import ir_hash
from . import PolicyAbort, Proposal

FENCE = re.compile(r"```[ \t]*(?:mlir|cake)?[ \t]*\n(.*?)```", re.S)

SYSTEM = ("You write GPU kernels in CAKE IR, an MLIR dialect (cake.kernel, cake.load/store, cake.alloc_smem, "
          "cake.barrier, warp reductions, arith/scf/vector/math). Answer with exactly one complete module in one "
          "```mlir fenced block: the whole kernel, same name, parameters and problem-size symbols as the parent. "
          "It must stay correct for every shape, including ragged ones.")


def extract_ir(answer):
    """The IR in the answer's fenced block (the longest one holding a cake.kernel), or None."""
    blocks = [b.strip() for b in FENCE.findall(answer or "") if "cake.kernel" in b]
    return max(blocks, key=len) if blocks else None


class LLMConfigError(ValueError):
    """The environment does not configure an endpoint."""


class LLMPolicy:
    name = "llm"

    def __init__(self, task, rng, db, run_id, env=None, max_failures=3):
        env = os.environ if env is None else env
        self.base = env.get("CAKE_LLM_BASE_URL", "").rstrip("/")
        self.model = env.get("CAKE_LLM_MODEL", "")
        self.key = env.get("CAKE_LLM_API_KEY", "")
        self.timeout = float(env.get("CAKE_LLM_TIMEOUT", "120"))
        if not self.base or not self.model:
            raise LLMConfigError("the llm policy needs CAKE_LLM_BASE_URL and CAKE_LLM_MODEL "
                                 "(CAKE_LLM_API_KEY if the endpoint wants one)")
        self.task, self.rng, self.db, self.run_id = task, rng, db, run_id
        self.max_failures, self.failures_in_row = max_failures, 0

    def prompt(self, parent, members):
        """The chat messages for one child of ``parent`` (a Member, or None for the seed)."""
        t = self.task
        shapes = "; ".join(",".join(f"{k}={v}" for k, v in s.items()) for s in t.shapes)
        lines = [f"Task: {t.name}: {t.data.get('description', '')}",
                 f"Shapes (all must be correct, rtol {t.rtol}): {shapes}",
                 f"Objective: {t.objective['kind']} kernel time over the shapes (lower is better)."]
        if parent is None:
            ir = t.instantiate(t.start_genome())
            lines.append("Parent: the task's seed.")
        else:
            ir = parent.ir
            lines.append("Parent feedback:\n" + feedback.text(feedback.of(self.db, parent.id)))
            best = population.ranked(members)[:1]
            if best and best[0].id != parent.id and population.stagnant(members):
                lines.append("Progress stalled. A faster sibling, for comparison:\n"
                             + feedback.text(feedback.of(self.db, best[0].id)))
        last = max((m.generation for m in members), default=None)
        failed = [m for m in members if m.generation == last and m.status == "failed"]
        if failed:
            lines.append("The last proposal failed:\n" + feedback.text(feedback.of(self.db, failed[-1].id)))
        lines.append("Parent IR:\n```mlir\n" + ir.strip() + "\n```")
        lines.append("Propose one faster, still-correct kernel.")
        return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n\n".join(lines)}]

    def ask(self, messages):
        """One chat completion; returns the answer text (raises OSError/ValueError on failure)."""
        body = json.dumps({"model": self.model, "messages": messages, "temperature": 0.7}).encode()
        req = urllib.request.Request(self.base + "/chat/completions", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
        if self.key:
            req.add_header("Authorization", "Bearer " + self.key)
        with urllib.request.urlopen(req, timeout=self.timeout) as resp:
            doc = json.loads(resp.read().decode("utf-8", "replace"))
        try:
            return doc["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise ValueError("response without choices[0].message.content") from None

    def propose(self, members, n):
        out, seen = [], {m.signature for m in members}
        for _ in range(n):
            parent = population.tournament(members, self.rng)
            try:
                answer = self.ask(self.prompt(parent, members))
            except (urllib.error.URLError, OSError) as e:
                self._failure("llm_unreachable", f"{self.base}: {getattr(e, 'reason', e)}")
                continue
            except ValueError as e:
                self._failure("llm_malformed", f"bad response: {e}")
                continue
            ir = extract_ir(answer)
            if ir is None:
                self._failure("llm_malformed", "no fenced block with a cake.kernel in the answer: "
                              + (answer or "")[:200])
                continue
            self.failures_in_row = 0
            sig = "llm:" + ir_hash(ir)[:16]
            if sig in seen:
                continue
            seen.add(sig)
            out.append(Proposal(ir + "\n", self.name, parent.id if parent else None, None, (), sig))
        return out

    def _failure(self, cls, detail):
        self.db.record_failure(self.run_id, cls, detail, step="propose")
        self.failures_in_row += 1
        if self.failures_in_row >= self.max_failures:
            raise PolicyAbort(f"{cls}: {self.failures_in_row} LLM failures in a row; last: {detail}")
