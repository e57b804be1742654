"""One GPU measurement: the cake-run command, the judgement of its record, and the fitness.

Shared by the local backend (runs cake-run here) and batch ingestion (records from elsewhere), so a
record is judged the same way wherever it was produced: it must be for the planned candidate, shape
and seed; its status is cake-run's; a time below the task's speed-of-light floor is rejected as
``suspicious_fast``.
"""
import json
import secrets

RUN_CLASSES = {"ok", "wrong_result", "bad_arguments", "launch_failure", "timeout", "no_device"}


def fresh_seed():
    """A fresh input seed per measurement (never reused across evaluations)."""
    return secrets.randbelow(2 ** 31 - 1) + 1


def sizes_arg(shape):
    return ",".join(f"{k}={v}" for k, v in shape.items())


def run_argv(cake_run, cubin, manifest, ref, task, shape, seed, iters=50, inputs=None):
    """The cake-run command line of one measurement (relative paths are fine for batch folders);
    ``inputs``: {name: raw file} of the task's generated inputs for this shape (inputs.write)."""
    argv = [cake_run, "--cubin", cubin, "--manifest", manifest, "--sizes", sizes_arg(shape),
            "--seed", str(seed), "--ref", ref, "--rtol", repr(task.rtol), "--iters", str(iters),
            "--timeout", str(int(task.timeouts["run"]))]
    if task.timer != "events":
        argv += ["--timer", task.timer]
    if task.kernel:
        argv += ["--kernel", task.kernel]
    if task.ref_entry:
        argv += ["--ref-entry", task.ref_entry]
    for k, v in task.scalars.items():
        argv += ["--scalar", f"{k}={v}"]
    if task.interface is not None:  # compare the declared outputs, whatever the candidate writes
        argv += task.interface.run_flags()
    for name, path in (inputs or {}).items():  # the candidate and the reference read the same file
        argv += ["--input", f"{name}={path}"]
    return argv


def parse_record(stdout):
    """cake-run's one JSON record (the last JSON line of stdout), or None."""
    for line in reversed((stdout or "").strip().splitlines()):
        try:
            rec = json.loads(line)
            if isinstance(rec, dict) and "status" in rec:
                return rec
        except json.JSONDecodeError:
            continue
    return None


def judge(task, shape, seed, record, detail=None):
    """A measurement dict {shape, seed, status, time_ms, floor_ms, rel_err, detail, record}.

    ``status`` is cake-run's status, ``run_timeout`` for its timeout, ``runner_crash`` when there is no
    record, ``mismatch`` when the record is not for the planned shape/seed, ``suspicious_fast`` when an
    ``ok`` time lies below the floor.
    """
    floor_ms = task.floor_seconds(shape) * 1e3
    m = {"shape": dict(shape), "seed": seed, "status": None, "time_ms": None, "floor_ms": floor_ms,
         "rel_err": None, "detail": detail, "record": record}
    if record is None:
        m["status"] = "runner_crash"
        return m
    status = record.get("status")
    m["time_ms"] = record.get("time_ms")
    errs = [o.get("rel_err") for o in record.get("outputs") or [] if o.get("rel_err") is not None]
    m["rel_err"] = max(errs) if errs else None
    m["detail"] = record.get("error") or detail
    if record.get("sizes") != {k: v for k, v in shape.items()} or record.get("seed") != seed:
        m["status"] = "mismatch"
        m["detail"] = f"record is for sizes {record.get('sizes')} seed {record.get('seed')}, " \
                      f"planned {shape} seed {seed}"
    elif status not in RUN_CLASSES:
        m["status"] = "runner_crash"
    elif status == "timeout":
        m["status"] = "run_timeout"
    elif status == "ok" and (not isinstance(m["time_ms"], (int, float)) or m["time_ms"] <= 0):
        m["status"] = "runner_crash"
        m["detail"] = "ok record without a positive time_ms"
    elif status == "ok" and _unchecked_outputs(task, record):
        m["status"] = "wrong_result"
        m["detail"] = f"declared outputs not compared: {', '.join(_unchecked_outputs(task, record))}"
    elif status == "ok" and m["time_ms"] < floor_ms:
        m["status"] = "suspicious_fast"
        m["detail"] = f"{m['time_ms']:.6f} ms is below the speed-of-light floor {floor_ms:.6f} ms"
    else:
        m["status"] = status
    return m


def _unchecked_outputs(task, record):
    """The task's declared outputs that the record does not show compared with the reference."""
    if task.interface is None:
        return []
    compared = {o.get("name") for o in record.get("outputs") or [] if o.get("checked_by") not in (None, "none")}
    return [n for n in task.interface.tensors("out", "inout") if n not in compared]


def fitness(task, measurements):
    """The objective over shapes (ms, lower is better), or None unless every shape measured ``ok``."""
    if not measurements or any(m["status"] != "ok" for m in measurements):
        return None
    by_shape = {}
    for m in measurements:
        by_shape.setdefault(sizes_arg(m["shape"]), []).append(m["time_ms"])
    times = []
    for shape in task.shapes:
        ts = sorted(by_shape.get(sizes_arg(shape), []))
        if not ts:
            return None
        times.append(ts[len(ts) // 2])
    return objective(task, times)


def objective(task, times):
    """The task's objective over one time per shape (in the task's shape order): measured medians,
    or the cost model's predictions (model-only ranking and the GPU pre-screen)."""
    times = list(times)
    if task.objective["kind"] == "weighted":
        w = task.objective["weights"]
        return sum(wi * t for wi, t in zip(w, times)) / sum(w)
    times.sort()
    n = len(times)
    return times[n // 2] if n % 2 else 0.5 * (times[n // 2 - 1] + times[n // 2])
