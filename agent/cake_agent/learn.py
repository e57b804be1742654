"""What the harness learns from its database (docs/Harness.md, "Learning").

1. **Tactic statistics per task class** (``tactic_stats`` table): for every candidate made by
   appending one tactic to its parent's chain, a try; a success when the child compiled (and, where
   measured, was correct); the speedup ``parent fitness / child fitness`` when both have one of the
   same kind. ``refresh_tactic_stats`` rebuilds the table from the candidates (after every
   generation); ``tactic_stats(db, cls)`` gives the class's figures, or every class's pooled for a
   class with none, and the search policy orders its tactics by them (tactics.order).
2. **Failure clusters -> proposed verifier rules**: failed candidates are clustered by (failure
   class, verifier rule id, op); for each cluster the IR features (an op name, or an op with its
   result type) present in every failing member and in no passing candidate are candidate rules;
   where none separates, an op feature together with a block size (at least T threads).
   A rule is emitted in the rules-as-data form (PDL, ``cake-opt --cake-load-rules=FILE``,
   lib/Verify/Rules.cpp) and accepted only if cake-opt running it flags every failing member
   and no passing candidate of the database; an accepted rule is saved with a generated lit test.
3. **Calibration from the database**: measured times joined with the cost reports stored for the
   same candidate and shape become the dataset ``cake calibrate --from-db`` refits the profile on.
"""
import json
import math
import os
import re
import subprocess
import tempfile
import time

from . import irview

VIABLE = ("compiled", "measured", "pending_gpu", "screened")

STATS_SCHEMA = """
CREATE TABLE IF NOT EXISTS tactic_stats (
  task_class TEXT NOT NULL, tactic TEXT NOT NULL, tries INTEGER, successes INTEGER,
  speedup_sum REAL, speedup_n INTEGER, updated REAL, PRIMARY KEY (task_class, tactic));
"""


# --- 1. tactic statistics ---------------------------------------------------------------------

def refresh_tactic_stats(db):
    """Rebuilds ``tactic_stats`` from every candidate of the database (one transaction)."""
    db.conn.executescript(STATS_SCHEMA)
    rows = db.q("SELECT c.status, c.fitness, c.fitness_kind, c.tactics, p.tactics AS ptactics,"
                " p.fitness AS pfitness, p.fitness_kind AS pkind, COALESCE(r.task_class, r.task) AS cls"
                " FROM candidates c JOIN candidates p ON p.id = c.parent_id JOIN runs r ON r.id = c.run_id")
    acc = {}
    for r in rows:
        chain, pchain = json.loads(r["tactics"] or "[]"), json.loads(r["ptactics"] or "[]")
        if len(chain) != len(pchain) + 1 or chain[:-1] != pchain:
            continue  # a parameter mutation (possibly re-applying the parent's chain)
        s = acc.setdefault((r["cls"], chain[-1]), [0, 0, 0.0, 0])
        s[0] += 1
        s[1] += r["status"] in VIABLE
        if (r["fitness"] and r["pfitness"] and r["fitness_kind"] == r["pkind"] and r["status"] in VIABLE):
            s[2] += r["pfitness"] / r["fitness"]
            s[3] += 1
    with db.tx() as c:
        c.execute("DELETE FROM tactic_stats")
        for (cls, tac), (tries, ok, ssum, sn) in sorted(acc.items()):
            c.execute("INSERT INTO tactic_stats VALUES (?,?,?,?,?,?,?)", (cls, tac, tries, ok, ssum, sn, time.time()))
    return len(acc)


def tactic_stats(db, task_class):
    """{tactic: {tries, successes, mean_speedup, source}} for ``task_class``; a class without any
    figures gets every class's figures pooled (a new task starts from what worked elsewhere)."""
    db.conn.executescript(STATS_SCHEMA)
    rows = db.q("SELECT * FROM tactic_stats WHERE task_class=?", (task_class,))
    source = task_class
    if not rows:
        rows = db.q("SELECT 'all' AS task_class, tactic, SUM(tries) AS tries, SUM(successes) AS successes,"
                    " SUM(speedup_sum) AS speedup_sum, SUM(speedup_n) AS speedup_n FROM tactic_stats GROUP BY tactic")
        source = "all classes"
    return {r["tactic"]: {"tries": r["tries"], "successes": r["successes"], "source": source,
                          "mean_speedup": r["speedup_sum"] / r["speedup_n"] if r["speedup_n"] else None}
            for r in rows}


# --- 2. failure clusters and proposed rules ---------------------------------------------------

# Block-size features are thresholds ("at least T threads"), the form cakeBlockThreadsAtLeast
# checks: the register cap per thread (64K / threads) tightens as blocks grow.
THREAD_STEPS = (128, 256, 512, 1024)


def features(ir, cake_opt):
    """The IR's features a rule can match, read from its structured view (irview: the bindings,
    else ``cake_opt``): ``op:NAME`` (every op), ``op:NAME->TYPE`` (every single-result op) and
    ``threads>=T`` (the first kernel's block has at least T threads, T in THREAD_STEPS). IR that
    cannot be read has none: cake-opt stops at it before any rule could flag it."""
    return set(irview.remembered("rule features", _features, ir, cake_opt))


def _features(view):
    if view is None:
        return frozenset()
    out = set()
    for op in irview.walk(view["ops"]):
        out.add("op:" + op["name"])
        if len(op["results"]) == 1:
            out.add(f"op:{op['name']}->{op['results'][0]['type']}")
    threads = _block_threads(view)
    out |= {f"threads>={t}" for t in THREAD_STEPS if threads and threads >= t}
    return frozenset(out)


def _block_threads(view):
    """Threads per block of the first kernel (the product of its ``block`` extents), None without one."""
    for op in irview.walk(view["ops"]):
        extents = op["name"] == "cake.kernel" and op.get("values", {}).get("block")
        if extents:
            return math.prod(extents)
    return None


# Failures of the machine or the tools, not of the candidate: a rule learned from them would reject
# kernels for what the environment did (a missing ptxas fails every f32 kernel alike).
INFRA_CLASSES = {"verify_missing", "verify_crash", "compile_missing", "compile_crash", "compile_output",
                 "cost_missing", "cost_crash", "cost_unparsed", "runner_crash", "mismatch", "no_device",
                 "bad_arguments", "environment",
                 # ray backend: a worker or node lost, or never answering, after its bounded retries
                 "worker_lost", "worker_timeout"}


def is_infrastructure(failure_class):
    return failure_class in INFRA_CLASSES or (failure_class or "").startswith("llm_")


def clusters(db, task_class=None):
    """Failed candidates grouped by (failure class, first rule id, first op): {key: [candidate rows]}.
    Failures of the tools or the machine (INFRA_CLASSES) and of the LLM endpoint are left out."""
    sql = ("SELECT c.*, COALESCE(r.task_class, r.task) AS cls FROM candidates c JOIN runs r ON r.id=c.run_id"
           " WHERE c.status='failed'" + (" AND COALESCE(r.task_class, r.task)=?" if task_class else ""))
    out = {}
    for c in db.q(sql, (task_class,) if task_class else ()):
        if is_infrastructure(c["failure_class"]):
            continue
        d = db.q("SELECT rule, op FROM diagnostics WHERE candidate_id=? ORDER BY rowid LIMIT 1", (c["id"],))
        key = (c["failure_class"] or "failed", (d[0]["rule"] or "") if d else "", (d[0]["op"] or "") if d else "")
        out.setdefault(key, []).append(c)
    return out


def passing(db, task_class=None):
    """Candidates that compiled and were not found wrong (the rule must flag none of them),
    screened ones included; with ``task_class``, only that class's."""
    if task_class is None:
        return db.q("SELECT * FROM candidates WHERE status IN (%s)" % ",".join("?" * len(VIABLE)), VIABLE)
    return db.q("SELECT c.* FROM candidates c JOIN runs r ON r.id=c.run_id WHERE c.status IN (%s)"
                " AND COALESCE(r.task_class, r.task)=?" % ",".join("?" * len(VIABLE)), (*VIABLE, task_class))


def _slug(text):
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:60] or "x"


class Proposal:
    """A proposed rule: the feature it matches (an op, with its result type or not), optionally
    only in blocks of at least ``threads`` threads; the cluster it comes from; its PDL text."""

    def __init__(self, key, feature, members, threads=None):
        self.key, self.feature, self.members, self.threads = key, feature, members, threads
        cls, rule, op = key
        body = feature[3:]
        self.op, _, self.type = body.partition("->")
        suffix = f"_threads{threads}" if threads else ""
        self.name = "learned_" + _slug(f"{cls}_{body}") + suffix
        self.rule_id = ("learned." + _slug(cls).replace("_", "-") + "." + _slug(body).replace("_", "-")
                        + (f".threads-{threads}" if threads else ""))
        # The diagnostic already names the op ("'OP' op [rule] ..."): the message says the rest.
        where = (f"producing {self.type}" if self.type else "this op") + (
            f" in blocks of {threads} or more threads" if threads else "")
        self.message = (f"{where} preceded every recorded {cls} failure ({len(members)} candidates"
                        f"{', rule ' + rule if rule else ''}) and occurs in no passing candidate")
        what = f"'{self.op}'" + (f" {where}" if self.type or threads else "")
        self.hint = f"avoid {what}; the candidates using it failed with {cls}"

    def matches(self, feats):
        """The feature predicate: the rule's features are all in ``feats`` (a features() set)."""
        return self.feature in feats and (not self.threads or f"threads>={self.threads}" in feats)

    def pdl(self):
        """The rule in the rules-as-data form (a PDL module for --cake-load-rules)."""
        esc = lambda s: s.replace("\\", "\\\\").replace('"', '\\"')
        match = "    %operands = pdl.operands\n"  # any operands (else PDL matches only ops with none)
        if self.type:
            match += (f"    %t = pdl.type : {self.type}\n"
                      f"    %op = pdl.operation \"{self.op}\"(%operands : !pdl.range<value>) -> (%t : !pdl.type)\n")
        else:
            match += ("    %types = pdl.types\n"  # any results
                      f"    %op = pdl.operation \"{self.op}\"(%operands : !pdl.range<value>) -> (%types : !pdl.range<type>)\n")
        if self.threads:
            match += (f"    %threads = pdl.attribute = {self.threads} : i64\n"
                      f"    pdl.apply_native_constraint \"cakeBlockThreadsAtLeast\"(%op, %threads : "
                      f"!pdl.operation, !pdl.attribute)\n")
        return (f"// Learned by `cake learn rules` from failure cluster {self.key}.\n"
                f"module {{\n  pdl.pattern @{self.name} : benefit(1) {{\n{match}"
                f"    pdl.rewrite %op {{\n"
                f"      %id = pdl.attribute = \"{esc(self.rule_id)}\"\n"
                f"      %msg = pdl.attribute = \"{esc(self.message)}\"\n"
                f"      %hint = pdl.attribute = \"{esc(self.hint)}\"\n"
                f"      pdl.apply_native_rewrite \"cakeReport\"(%op, %id, %msg, %hint : !pdl.operation, "
                f"!pdl.attribute, !pdl.attribute, !pdl.attribute)\n    }}\n  }}\n}}\n")


def _learnable(db, min_members, task_class):
    """[(key, members)] of the clusters of at least ``min_members`` whose classes have a passing
    candidate: without one, nothing shows that a feature is the cause rather than something every
    kernel of the class has."""
    return [(key, members) for key, members in sorted(clusters(db, task_class).items())
            if len(members) >= min_members and all(passing(db, cls) for cls in {m["cls"] for m in members})]


def propose(db, min_members=2, task_class=None, cake_opt=None):
    """Candidate rules: per cluster of at least ``min_members``, each feature in every failing member
    and in no passing candidate (op-with-type features first, most specific wins ties); then, where
    no single feature separates, an op feature with a block size (``threads>=T``) that every member
    has and no passing candidate has together (cake ops first, the smallest T first). The IR is
    read from its structured view (``features``), where every op's result type is visible."""
    learnable = _learnable(db, min_members, task_class)
    good_sets = [features(p["ir"], cake_opt) for p in passing(db)] if learnable else []
    good = set().union(*good_sets)
    out = []
    for key, members in learnable:
        common = set.intersection(*(features(m["ir"], cake_opt) for m in members))
        single = common - good
        for feat in sorted(single, key=lambda f: ("->" not in f, f)):
            out.append(Proposal(key, feat, members))
        if single:
            continue
        # Typed cake ops first, register-typed results before buffers: what a block size limits
        # is registers per thread, and a value type carries over to tasks with other buffers.
        ops = sorted((f for f in common if f.startswith("op:")),
                     key=lambda f: ("->" not in f, not f.startswith("op:cake."), "->!" in f, f))
        steps = sorted((int(f.split(">=")[1]) for f in common if f.startswith("threads>=")))
        for feat in ops:
            for t in steps:
                if not any(feat in g and f"threads>={t}" in g for g in good_sets):
                    out.append(Proposal(key, feat, members, threads=t))
                    break  # the smallest block size that separates
    return out


def rules_supported(cake_opt):
    try:
        res = subprocess.run([cake_opt, "--help"], capture_output=True, text=True, timeout=60)
    except OSError:
        return False
    return "cake-load-rules" in res.stdout


def flags(cake_opt, rule_file, name, ir, timeout=60):
    """True when the loaded rule reports a finding on ``ir`` (cake-opt fails with the rule id)."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(ir)
    try:
        res = subprocess.run([cake_opt, f.name, f"--cake-load-rules={rule_file}", f"--cake-rule-{name}",
                              "-o", os.devnull], capture_output=True, text=True, timeout=timeout)
    finally:
        os.unlink(f.name)
    return res.returncode != 0 and "[learned." in res.stderr, res.stderr


def accept(db, prop, cake_opt, workdir):
    """Checks a proposal against the stored IR: (accepted, why). Without the rules mechanism the
    check is the feature predicate (``Proposal.matches``; the PDL is still written) and the answer
    says so."""
    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, prop.name + ".pdl")
    with open(path, "w") as f:
        f.write(prop.pdl())
    if not rules_supported(cake_opt):
        # TODO(rules-as-data): cake-opt without --cake-load-rules: only the feature predicate is
        # checked; re-run `cake learn rules` with a cake-opt that loads rules to validate the PDL.
        missed = [m["id"] for m in prop.members if not prop.matches(features(m["ir"], cake_opt))]
        wrong = [p["id"] for p in passing(db) if prop.matches(features(p["ir"], cake_opt))]
        ok = not missed and not wrong
        return ok, ("feature predicate only (cake-opt has no --cake-load-rules); " +
                    ("flags all members, no passing candidate" if ok else f"misses {missed}, flags passing {wrong}"))
    for m in prop.members:
        hit, err = flags(cake_opt, path, prop.name, m["ir"])
        if not hit:
            return False, f"does not flag failing candidate {m['id']}: {err.strip()[:300]}"
    for p in passing(db):
        hit, _ = flags(cake_opt, path, prop.name, p["ir"])
        if hit:
            return False, f"flags passing candidate {p['id']}"
    return True, f"cake-opt flags all {len(prop.members)} failing members and none of {len(passing(db))} passing candidates"


def save(prop, db, out_dir, rules_dir=None, cake_opt=None):
    """Writes the accepted rule (``NAME.pdl``, into ``rules_dir``: default ``out_dir``) and its lit
    test (``out_dir/NAME.mlir``: the smallest failing member must be flagged with the rule id;
    ``Inputs/NAME-pass.mlir``: a passing candidate is not). The test finds the rule by its path
    relative to the test. Rules saved in the repository's rules/learned/ are loaded by every later
    run's verify step (tools.Toolchain.rules). ``cake_opt`` reads the passing candidates' features."""
    rules_dir = rules_dir or out_dir
    os.makedirs(os.path.join(out_dir, "Inputs"), exist_ok=True)
    os.makedirs(rules_dir, exist_ok=True)
    rule_path = os.path.join(rules_dir, prop.name + ".pdl")
    with open(rule_path, "w") as f:
        f.write(prop.pdl())
    rule_ref = "%S/" + os.path.relpath(rule_path, out_dir).replace(os.sep, "/")
    member = min(prop.members, key=lambda m: len(m["ir"]))
    # The negative case is a near miss where there is one: a passing candidate with the rule's op.
    good = sorted(passing(db), key=lambda p: (f"op:{prop.op}" not in features(p["ir"], cake_opt),
                                               len(p["ir"])))
    runs = [f"// RUN: not cake-opt %s --cake-load-rules={rule_ref} --cake-rule-{prop.name} "
            f"-o /dev/null 2>&1 | FileCheck %s"]
    if good:
        with open(os.path.join(out_dir, "Inputs", prop.name + "-pass.mlir"), "w") as f:
            f.write(good[0]["ir"])
        runs.append(f"// RUN: cake-opt %S/Inputs/{prop.name}-pass.mlir --cake-load-rules={rule_ref} "
                    f"--cake-rule-{prop.name} -o /dev/null")
    head = "\n".join(runs + [f"// Generated by `cake learn rules` from candidate {member['id']} "
                             f"(cluster {prop.key}).", f"// CHECK: [{prop.rule_id}]", ""])
    test = os.path.join(out_dir, prop.name + ".mlir")
    with open(test, "w") as f:
        f.write(head + "\n" + member["ir"])
    return test


# --- 3. calibration dataset -------------------------------------------------------------------

def calibration_dataset(db, run_id=None):
    """[{variant, family, group, sizes, time_ms, report}] from measured shapes whose candidate has a
    stored cost report with a ``model`` for the same sizes (the input of calibrate.calibrate)."""
    sql = ("SELECT m.shape, m.time_ms, c.id, r.task, cr.report FROM measurements m"
           " JOIN candidates c ON c.id=m.candidate_id JOIN runs r ON r.id=c.run_id"
           " JOIN cost_reports cr ON cr.candidate_id=c.id"
           " WHERE m.status='ok' AND m.time_ms > 0 AND cr.status='ok'" + (" AND c.run_id=?" if run_id else ""))
    data, skipped = [], 0
    for row in db.q(sql, (run_id,) if run_id else ()):
        shape = json.loads(row["shape"])
        reports = json.loads(row["report"] or "null") or []
        body = None
        for rep in reports if isinstance(reports, list) else [reports]:
            ks = rep.get("kernels") if isinstance(rep, dict) else None
            for k in ks if isinstance(ks, list) else [rep]:
                if isinstance(k, dict) and k.get("model") is not None and \
                        {str(a): str(b) for a, b in (k.get("sizes") or {}).items()} == \
                        {str(a): str(b) for a, b in shape.items()}:
                    body = k
        if body is None:
            skipped += 1
            continue
        key = ",".join(f"{k}={v}" for k, v in sorted(shape.items()))
        data.append({"variant": f"{row['task']}#{row['id']}", "family": row["task"], "group": f"{row['task']}:{key}",
                     "sizes": shape, "time_ms": float(row["time_ms"]), "report": body})
    return data, skipped
