"""The LLM policy: an OpenAI-compatible chat endpoint proposes whole kernels in CAKE IR.

Environment: CAKE_LLM_BASE_URL (e.g. http://host:8000/v1), CAKE_LLM_MODEL, CAKE_LLM_API_KEY
(optional), CAKE_LLM_TURNS (earlier proposals kept in the conversation, default 4) and the client's
limits (llm_client.py): CAKE_LLM_TIMEOUT (total seconds per attempt, default 120),
CAKE_LLM_CONNECT_TIMEOUT (10), CAKE_LLM_READ_TIMEOUT (longest silence; default the total),
CAKE_LLM_MAX_BYTES (largest answer, 1 MiB), CAKE_LLM_RETRIES (3, on 429, 5xx and dropped
connections), CAKE_LLM_BACKOFF (1 s, doubled per retry, with jitter), CAKE_LLM_BACKOFF_MAX (30 s,
also the longest Retry-After honoured). A missing or bad value is an LLMConfigError (cake exits 2).

The conversation: the system prompt, the task, then the policy's last CAKE_LLM_TURNS evaluated
proposals, each as the assistant turn that gave its IR (one ```mlir block, so the diagnostics' line
numbers count lines the model has seen) and a user turn with its feedback (feedback.py). The last
user turn asks for a child of a parent chosen by tournament: the parent's IR unless shown above, its
feedback, on stagnation the best sibling's, and why the previous answer could not be used.

The answer's IR is the last fenced block that holds a ``cake.kernel`` (the last: models show the old
kernel before the new one); any language tag in any case or none, CRLF line endings, and a final
fence left open are accepted. Every failure (llm_unreachable, llm_timeout, llm_too_large,
llm_http_error, llm_malformed: no such block) is recorded with step ``propose`` and the policy asks
again; after ``max_failures`` failures in a row it raises PolicyAbort (cake exits 3, the run is
``aborted``). ``propose`` returns fewer than asked only after ``max_failures`` repeated kernels.
"""
import os

from .. import feedback, population
from ..evaluator import ir_hash
from . import PolicyAbort, Proposal
from .llm_client import ChatClient, LLMConfigError, LLMError, Settings, number

SYSTEM = ("You write GPU kernels in CAKE IR, an MLIR dialect (cake.kernel, cake.load/store, cake.alloc_smem, "
          "cake.barrier, warp reductions, arith/scf/vector/math). Answer with exactly one complete module in one "
          "```mlir fenced block: the whole kernel, same name, parameters and problem-size symbols as the parent. "
          "It must stay correct for every shape, including ragged ones.")


def fenced_blocks(answer):
    """The texts of the answer's ``` blocks (any language tag); a final unclosed block runs to the end."""
    blocks, block = [], None
    for line in (answer or "").replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if block is None:
            if line.lstrip().startswith("```"):
                block = []  # the rest of the fence line is the language tag
        elif line.strip().startswith("```"):
            blocks.append(block)
            block = None
        elif line.rstrip().endswith("```"):  # a fence closed at the end of the last IR line
            blocks.append(block + [line.rstrip()[:-3]])
            block = None
        else:
            block.append(line)
    if block is not None:
        blocks.append(block)
    return ["\n".join(b).strip() for b in blocks]


def extract_ir(answer):
    """The IR of the answer's last fenced block holding a cake.kernel, or None."""
    blocks = [b for b in fenced_blocks(answer) if "cake.kernel" in b]
    return blocks[-1] if blocks else None


def fence(ir):
    return "```mlir\n" + ir.strip("\n") + "\n```"


class LLMPolicy:
    name = "llm"

    def __init__(self, task, rng, db, run_id, env=None, max_failures=3):
        env = os.environ if env is None else env
        base = env.get("CAKE_LLM_BASE_URL", "").strip().rstrip("/")
        self.model = env.get("CAKE_LLM_MODEL", "").strip()
        if not base or not self.model:
            raise LLMConfigError("the llm policy needs CAKE_LLM_BASE_URL and CAKE_LLM_MODEL "
                                 "(CAKE_LLM_API_KEY if the endpoint wants one)")
        headers = {"Content-Type": "application/json"}
        if env.get("CAKE_LLM_API_KEY"):
            headers["Authorization"] = "Bearer " + env["CAKE_LLM_API_KEY"]
        self.client = ChatClient(base + "/chat/completions", headers, Settings(env))
        self.turns = number(env, "CAKE_LLM_TURNS", 4, int)
        self.task, self.rng, self.db, self.run_id = task, rng, db, run_id
        self.max_failures, self.failures_in_row = max_failures, 0
        self.last_problem = None  # why the previous answer could not be used, for the next request

    def prompt(self, parent, members):
        """The chat messages for one child of ``parent`` (a Member, or None for the seed)."""
        t = self.task
        shapes = "; ".join(",".join(f"{k}={v}" for k, v in s.items()) for s in t.shapes)
        messages = [{"role": "system", "content": SYSTEM},
                    {"role": "user", "content": f"Task: {t.name}: {t.data.get('description', '')}\n"
                     f"Shapes (all must be correct, rtol {t.rtol}): {shapes}\n"
                     f"Objective: {t.objective['kind']} kernel time over the shapes (lower is better)."}]
        shown = set()
        for m in self.history(members):
            head = (f"Your kernel above is candidate {m.id}: it failed (line numbers count the lines of its "
                    f"```mlir block)." if m.status == "failed" else f"Your kernel above is candidate {m.id}.")
            messages += [{"role": "assistant", "content": fence(m.ir)},
                         {"role": "user", "content": head + "\n" + feedback.text(feedback.of(self.db, m.id))}]
            shown.add(m.id)
        messages[-1]["content"] += "\n\n" + self.request(parent, members, shown)  # roles must alternate
        return messages

    def history(self, members):
        """The policy's last ``turns`` evaluated proposals, oldest first."""
        mine = [m for m in members if (m.signature or "").startswith("llm:")]
        return sorted(mine, key=lambda m: m.id)[-self.turns:] if self.turns else []

    def request(self, parent, members, shown):
        lines = [f"Your previous answer could not be used: {self.last_problem}"] if self.last_problem else []
        if parent is None:
            lines.append("Parent: the task's seed:\n" + fence(self.task.instantiate(self.task.start_genome())))
        elif parent.id in shown:
            lines.append(f"Parent: candidate {parent.id} (above).")
        else:
            lines.append(f"Parent: candidate {parent.id}:\n" + feedback.text(feedback.of(self.db, parent.id))
                         + "\n" + fence(parent.ir))
        best = population.ranked(members)[:1]
        if parent is not None and best and best[0].id != parent.id and population.stagnant(members):
            lines.append("Progress stalled. A faster sibling, for comparison:\n"
                         + feedback.text(feedback.of(self.db, best[0].id)))
        lines.append("Propose one faster, still-correct kernel: the whole module in one ```mlir block.")
        return "\n\n".join(lines)

    def propose(self, members, n):
        out, seen, repeats = [], {m.signature for m in members}, 0
        # A failed answer is recorded and asked again (PolicyAbort after max_failures in a row), so
        # one bad answer never ends a generation empty, which would end the run as "exhausted".
        while len(out) < n and repeats < self.max_failures:
            parent = population.tournament(members, self.rng)
            try:
                answer = self.client.complete({"model": self.model, "messages": self.prompt(parent, members),
                                               "temperature": 0.7})
            except LLMError as e:
                self._failure(e.cls, e.detail)
                continue
            ir = extract_ir(answer)
            if ir is None:
                self._failure("llm_malformed", "no fenced block with a cake.kernel in the answer: "
                              + answer[:200])
                continue
            self.failures_in_row = 0
            sig = "llm:" + ir_hash(ir)[:16]
            if sig in seen:
                repeats += 1
                self.last_problem = "it repeats a kernel already proposed; propose a different one."
                continue
            self.last_problem = None
            seen.add(sig)
            out.append(Proposal(ir + "\n", self.name, parent.id if parent else None, None, (), sig))
        return out

    def _failure(self, cls, detail):
        self.db.record_failure(self.run_id, cls, detail, step="propose")
        self.last_problem = f"{cls}: {detail}"[:300] if cls == "llm_malformed" else None
        self.failures_in_row += 1
        if self.failures_in_row >= self.max_failures:
            raise PolicyAbort(f"{cls}: {self.failures_in_row} LLM failures in a row; last: {detail}")
