"""Task files (docs/Tasks.md): loading, validation, tunable spaces and seed instantiation.

A task is JSON. Seeds are CAKE IR with ``{{expr}}`` placeholders over the tunables; instantiating a
genome (seed index + one value per tunable) substitutes every placeholder and nothing else. A task may
name a ``generator`` instead (a Python function that returns a genome's IR): for kernel families whose
structure, not only their constants, follows the parameters (libraries/*/evolve.py writes such tasks).
Validation type-checks every field first, then collects every contradiction, and raises one
TaskError listing them all.
"""
import hashlib
import importlib.util
import itertools
import json
import os
import re

from . import expr
from . import inputs as inputs_mod
from . import interface as interface_mod

PLACEHOLDER = re.compile(r"\{\{\s*([^{}]*?)\s*\}\}")
DEFAULT_BUDGET = {"candidates": 64, "gpu_evals": 64, "wall_s": 3600, "generation": 8, "screen": 3}
DEFAULT_TIMEOUTS = {"verify": 30, "cost": 30, "compile": 120, "run": 120}
DEFAULT_FLOOR = {"bandwidth": 4.24e12, "flops_per_s": 51e12}  # ANCHORS.md, H200 measured
KNOWN_KEYS = {"name", "description", "class", "seeds", "kernel", "tunables", "constraints", "start",
              "shapes", "grid", "reference", "ref_entry", "rtol", "scalars", "objective", "floor",
              "budget", "timeouts", "interface", "allow_ops", "inputs", "comment", "generator", "timer"}
TIMERS = ("events", "graph")  # cake-run --timer
GENERATOR_KEYS = {"path", "function", "fixed"}
TUNABLE_KEYS = {"type", "values", "min", "max", "step", "pow2", "comment"}
FLOOR_KEYS = {"bytes", "flops", "bandwidth", "flops_per_s"}
OBJECTIVE_KEYS = {"kind", "weights"}
INTEGER_BUDGET = {"candidates", "gpu_evals", "generation", "screen"}  # counts; wall_s may be fractional
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class TaskError(ValueError):
    """A task file that cannot be used; the message lists every problem found."""


class Task:
    """A validated task. Build with load_task(); attributes mirror the JSON (docs/Tasks.md)."""

    def __init__(self, path, data, seed_texts, tunables, generator=None):
        self.path = os.path.abspath(path)
        self.dir = os.path.dirname(self.path)
        self.data = data
        # (function, fixed parameters) of a generator task; seed_texts then holds its module's source
        self.generator = generator
        self._generated = {}  # signature -> IR text or the generator's error
        self.name = data["name"]
        self.task_class = data.get("class", self.name)
        self.kernel = data.get("kernel")
        self.seed_paths = data.get("seeds") or [data["generator"]["path"]]
        self.seed_texts = seed_texts
        self.tunables = tunables  # ordered dict name -> list of allowed values
        self.constraints = data.get("constraints", [])
        self.shapes = expand_shapes(data)
        self.reference = data["reference"]
        self.ref_entry = data.get("ref_entry")
        self.rtol = float(data["rtol"])
        self.timer = data.get("timer", "events")
        self.scalars = data.get("scalars", {})
        self.objective = data.get("objective", {"kind": "median"})
        self.floor = dict(DEFAULT_FLOOR, **data["floor"])
        self.budget = dict(DEFAULT_BUDGET, **data.get("budget", {}))
        self.timeouts = dict(DEFAULT_TIMEOUTS, **data.get("timeouts", {}))
        self.start = dict(data.get("start") or {k: v[0] for k, v in tunables.items()})
        # The declared interface (None: the seed's, set by evolve's environment check).
        self.interface = interface_mod.Interface(data["interface"]) if "interface" in data else None
        self.allow_ops = list(data.get("allow_ops", []))  # cake-verify-ops escapes the task permits
        self.inputs = dict(data.get("inputs") or {})  # name -> generator (inputs.py): cake-run --input

    # -- genomes -------------------------------------------------------------------------------
    def start_genome(self):
        """The first candidate: seed 0 with the task's ``start`` values."""
        return (0, dict(self.start))

    def genome_ok(self, genome):
        """Whether the genome's values are in range and satisfy every constraint."""
        seed, params = genome
        if not 0 <= seed < len(self.seed_texts):
            return False
        if set(params) != set(self.tunables):
            return False
        if any(params[k] not in vals for k, vals in self.tunables.items()):
            return False
        if not all(expr.evaluate(c, params) for c in self.constraints):
            return False
        return self.generator is None or not isinstance(self._generate(params), TaskError)

    def foreign_genomes(self, genomes):
        """The genomes (as recorded: [seed, {name: value}]) outside this task's search space: a
        run recorded under another version of the task (other tunables, values or constraints)
        cannot be continued with this one."""
        return [g for g in genomes if g and not self.genome_ok((g[0], g[1]))]

    def _generate(self, params):
        """The generator's IR for ``params``, or the TaskError saying why it gave none (cached: the
        search asks about a genome several times). A generator refuses a combination it cannot
        build by raising; that genome is then not legal, like one failing a constraint."""
        key = signature((0, params))
        if key not in self._generated:
            function, fixed = self.generator
            try:
                text = function(dict(fixed, **params), self.kernel)
                self._generated[key] = text if isinstance(text, str) else TaskError(
                    f"generator {self.seed_paths[0]}: returned {type(text).__name__}, not IR text")
            except Exception as e:  # the generator's own refusal (ValueError, AssertionError, ...)
                self._generated[key] = TaskError(f"generator {self.seed_paths[0]}: {params}: "
                                                 f"{type(e).__name__}: {e}")
        return self._generated[key]

    def instantiate(self, genome):
        """The IR text of a genome (raises TaskError if a placeholder cannot be evaluated or the
        generator gives no IR for it)."""
        seed, params = genome
        if self.generator is not None:
            text = self._generate(params)
            if isinstance(text, TaskError):
                raise text
            return text
        def sub(m):
            try:
                return str(expr.evaluate(m.group(1), params))
            except expr.ExprError as e:
                raise TaskError(f"{self.seed_paths[seed]}: placeholder {{{{{m.group(1)}}}}}: {e}")
        return PLACEHOLDER.sub(sub, self.seed_texts[seed])

    def floor_seconds(self, shape):
        """The speed-of-light time of one shape: max(bytes / bandwidth, flops / flops_per_s)."""
        return max(expr.evaluate(self.floor["bytes"], shape) / self.floor["bandwidth"],
                   expr.evaluate(self.floor["flops"], shape) / self.floor["flops_per_s"])

    def reference_path(self, refs_dir):
        """The reference cubin: absolute, relative to the task file, or found in ``refs_dir``."""
        cands = [self.reference] if os.path.isabs(self.reference) else [
            os.path.join(self.dir, self.reference)] + ([os.path.join(refs_dir, self.reference)] if refs_dir else [])
        return next((os.path.abspath(c) for c in cands if os.path.isfile(c)), None)

    def digest(self):
        """A hash of the task's content (JSON + seeds), stored with each run."""
        h = hashlib.sha256(json.dumps(self.data, sort_keys=True).encode())
        for t in self.seed_texts:
            h.update(t.encode())
        return h.hexdigest()[:16]


def signature(genome, tactics=()):
    """A canonical string for a genome plus tactic chain (the diversity key)."""
    seed, params = genome
    body = ",".join(f"{k}={params[k]}" for k in sorted(params))
    chain = "+".join(tactics)
    return f"s{seed}:{body}" + (f"|{chain}" if chain else "")


def expand_shapes(data):
    """The task's shapes: the explicit ``shapes`` list, then the cartesian ``grid``, in order."""
    shapes = [dict(s) for s in data.get("shapes", [])]
    grid = data.get("grid") or {}
    if grid:
        keys = list(grid)
        for combo in itertools.product(*(grid[k] for k in keys)):
            shapes.append(dict(zip(keys, combo)))
    return shapes


def _tunable_values(name, spec, problems):
    if not isinstance(spec, dict):
        problems.append(f"tunables.{name}: expected an object, got {spec!r}")
        return []
    for k in sorted(set(spec) - TUNABLE_KEYS):
        problems.append(f"tunables.{name}.{k}: unknown key (known: {', '.join(sorted(TUNABLE_KEYS))})")
    if "values" in spec and ({"min", "max", "step", "pow2"} & set(spec)):
        problems.append(f"tunables.{name}: give 'values' or a 'min'/'max' range, not both")
    if "pow2" in spec and not isinstance(spec["pow2"], bool):
        problems.append(f"tunables.{name}: 'pow2' must be true or false, got {spec['pow2']!r}")
        return []
    kind = spec.get("type", "int")
    if kind not in ("int", "enum"):
        problems.append(f"tunables.{name}: type must be 'int' or 'enum', got {kind!r}")
        return []
    if "values" in spec:
        vals = spec["values"]
        if not isinstance(vals, list) or not vals:
            problems.append(f"tunables.{name}: 'values' must be a non-empty list")
            return []
        want = int if kind == "int" else str
        if not all(isinstance(v, want) and not isinstance(v, bool) for v in vals):
            problems.append(f"tunables.{name}: every value must be {'an integer' if kind == 'int' else 'a string'}")
            return []
        if len(set(vals)) != len(vals):
            problems.append(f"tunables.{name}: duplicate values")
        return list(vals)
    if kind == "enum":
        problems.append(f"tunables.{name}: an enum needs 'values'")
        return []
    lo, hi = spec.get("min"), spec.get("max")
    if not _is_int(lo) or not _is_int(hi):
        problems.append(f"tunables.{name}: an int needs 'values' or integer 'min' and 'max'")
        return []
    if lo > hi:
        problems.append(f"tunables.{name}: min {lo} > max {hi}")
        return []
    if spec.get("pow2"):
        vals = [v for v in (1 << i for i in range(63)) if lo <= v <= hi]
    else:
        step = spec.get("step", 1)
        if not _is_int(step) or step < 1:
            problems.append(f"tunables.{name}: step must be a positive integer")
            return []
        vals = list(range(lo, hi + 1, step))
    if not vals:
        problems.append(f"tunables.{name}: the range [{lo}, {hi}] holds no value")
    return vals


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _check_types(data, problems):
    """Type-checks every field (docs/Tasks.md, "Validation"), appending to ``problems``; returns the
    names of the fields of the wrong type, which the later checks then leave alone (so a mistyped
    field gets its one message, not a cascade, and no later check trips over it)."""
    bad = set()

    def wrong(key, msg):
        problems.append(msg)
        bad.add(key)

    def text(key, what, empty_ok=False):
        if key in data and not (isinstance(data[key], str) and (empty_ok or data[key].strip())):
            wrong(key, f"'{key}' must be {what}, got {data[key]!r}")

    text("name", "a non-empty string")
    text("description", "a string", empty_ok=True)
    text("class", "a non-empty string (the task class)")
    text("kernel", "a string (the kernel's entry name, cake-run --kernel)")
    text("reference", "a string (the reference cubin's file name or path)")
    text("ref_entry", "a string (the reference's entry name, cake-run --ref-entry)")
    if "seeds" in data:
        seeds = data["seeds"]
        if not isinstance(seeds, list) or not seeds:
            wrong("seeds", "'seeds' must be a non-empty list of IR file paths")
        else:
            for i, s in enumerate(seeds):
                if not isinstance(s, str) or not s.strip():
                    wrong("seeds", f"seeds[{i}] must be a file path (a string), got {s!r}")
    if "generator" in data:
        gen = data["generator"]
        if not isinstance(gen, dict) or not isinstance(gen.get("path"), str) or not isinstance(
                gen.get("function"), str) or not isinstance(gen.get("fixed", {}), dict):
            wrong("generator", "'generator' must be an object {\"path\": a Python file, \"function\": its "
                  f"name, \"fixed\": an object of parameters}}, got {gen!r}")
        elif set(gen) - GENERATOR_KEYS:
            wrong("generator", f"generator: unknown keys {sorted(set(gen) - GENERATOR_KEYS)} (known: "
                  f"{', '.join(sorted(GENERATOR_KEYS))})")
    if "tunables" in data and not isinstance(data["tunables"], dict):
        wrong("tunables", f"'tunables' must be an object (name -> allowed values), got {data['tunables']!r}")
    if "constraints" in data:
        cons = data["constraints"]
        if not isinstance(cons, list):
            wrong("constraints", f"'constraints' must be a list of expressions, got {cons!r}")
        else:
            for i, c in enumerate(cons):
                if not isinstance(c, str):
                    wrong("constraints", f"constraints[{i}] must be an expression (a string), got {c!r}")
    if data.get("start") is not None and not isinstance(data["start"], dict):
        wrong("start", f"'start' must be an object (tunable -> value), got {data['start']!r}")
    if "shapes" in data:
        shapes = data["shapes"]
        if not isinstance(shapes, list):
            wrong("shapes", f"'shapes' must be a list of objects (symbol -> size), got {shapes!r}")
        else:
            for i, s in enumerate(shapes):
                if not isinstance(s, dict):
                    wrong("shapes", f"shape {i} {s!r}: expected an object (symbol -> size)")
    if data.get("grid") is not None:
        grid = data["grid"]
        if not isinstance(grid, dict):
            wrong("grid", f"'grid' must be an object (symbol -> list of sizes), got {grid!r}")
        else:
            for k, v in grid.items():
                if not isinstance(v, list) or not v or not all(_is_int(x) and x >= 1 for x in v):
                    wrong("grid", f"grid.{k} must be a non-empty list of positive integers, got {v!r}")
    for key in ("shapes", "grid"):
        if key in bad:
            continue
        items = data.get(key) or []
        for sym in (items if key == "grid" else [k for s in items for k in s]):
            if not NAME.fullmatch(sym) or sym in expr.FUNCTIONS:
                wrong(key, f"{key}: '{sym}' is not a valid symbol name")
                break
    if "timer" in data and data["timer"] not in TIMERS:
        wrong("timer", f"'timer' must be one of {', '.join(TIMERS)} (cake-run --timer), got {data['timer']!r}")
    if "rtol" in data and (not _is_num(data["rtol"]) or data["rtol"] <= 0):
        wrong("rtol", f"'rtol' must be a positive number, got {data['rtol']!r}")
    if "scalars" in data:
        sc = data["scalars"]
        if not isinstance(sc, dict):
            wrong("scalars", f"'scalars' must be an object (name -> number, cake-run --scalar), got {sc!r}")
        else:
            for k, v in sc.items():
                if not NAME.fullmatch(k):
                    wrong("scalars", f"scalars: '{k}' is not a valid name")
                elif not _is_num(v):
                    wrong("scalars", f"scalars.{k} must be a number, got {v!r}")
    if "objective" in data:
        obj = data["objective"]
        if not isinstance(obj, dict):
            wrong("objective", f"'objective' must be an object ({{\"kind\": \"median\"}} or "
                               f"{{\"kind\": \"weighted\", \"weights\": [...]}}), got {obj!r}")
        else:
            for k in sorted(set(obj) - OBJECTIVE_KEYS):
                wrong("objective", f"objective.{k}: unknown key (known: kind, weights)")
    if "floor" in data:
        floor = data["floor"]
        if not isinstance(floor, dict):
            wrong("floor", f"'floor' must be an object ('bytes' and 'flops' formulas), got {floor!r}")
        else:
            for k in sorted(set(floor) - FLOOR_KEYS):
                wrong("floor", f"floor.{k}: unknown key (known: {', '.join(sorted(FLOOR_KEYS))})")
            for k in ("bytes", "flops"):
                if k in floor and not isinstance(floor[k], str):
                    wrong("floor", f"floor.{k} must be a formula (a string) over the shape symbols, got {floor[k]!r}")
            for k in ("bandwidth", "flops_per_s"):
                if k in floor and not (_is_num(floor[k]) and floor[k] > 0):
                    wrong("floor", f"floor.{k} must be a positive number, got {floor[k]!r}")
    for section, defaults in (("budget", DEFAULT_BUDGET), ("timeouts", DEFAULT_TIMEOUTS)):
        if section not in data:
            continue
        val = data[section]
        if not isinstance(val, dict):
            wrong(section, f"'{section}' must be an object, got {val!r}")
            continue
        for k, v in val.items():
            if k not in defaults:
                wrong(section, f"{section}.{k}: unknown key (known: {', '.join(defaults)})")
            elif section == "budget" and k in INTEGER_BUDGET and not (_is_int(v) and v > 0):
                wrong(section, f"{section}.{k} must be a positive integer, got {v!r}")
            elif not _is_num(v) or v <= 0:
                wrong(section, f"{section}.{k} must be a positive number, got {v!r}")
    return bad


def load_task(path):
    """Reads and validates a task file; raises TaskError naming every missing or contradictory field."""
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise TaskError(f"{path}: cannot read: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise TaskError(f"{path}: not valid JSON: {e}") from None
    if not isinstance(data, dict):
        raise TaskError(f"{path}: expected a JSON object")
    problems = []
    for key in ("name", "reference", "rtol", "floor"):
        if key not in data:
            problems.append(f"missing field '{key}'")
    if ("seeds" in data) == ("generator" in data):
        problems.append("give either 'seeds' (IR files with placeholders) or 'generator' (a Python function), "
                        + ("not both" if "seeds" in data else "one is needed"))
    for key in sorted(set(data) - KNOWN_KEYS):
        problems.append(f"unknown field '{key}'")
    if not data.get("shapes") and not data.get("grid"):
        problems.append("missing field 'shapes' (or 'grid'): at least one problem shape is needed")
    mistyped = _check_types(data, problems)
    if "interface" in data:
        problems += interface_mod.problems(data["interface"])
        iface_kernel = data["interface"].get("kernel") if isinstance(data["interface"], dict) else None
        if isinstance(data.get("kernel"), str) and iface_kernel not in (None, data["kernel"]):
            problems.append(f"interface.kernel '{iface_kernel}' differs from kernel '{data['kernel']}'")
    allow = data.get("allow_ops", [])
    if not (isinstance(allow, list) and all(isinstance(a, str) and a and " " not in a and "," not in a
                                            for a in allow)):
        problems.append("allow_ops: expected a list of rule ids (ops.atomic) or op names (llvm.atomicrmw)")
    task_data, data = data, {k: v for k, v in data.items() if k not in mistyped}  # the checks below see well-typed fields

    # Seeds (or the generator: its module's source stands for them, so the digest follows it).
    seed_texts, base = [], os.path.dirname(os.path.abspath(path))
    seeds = data.get("seeds", [])
    generator = None
    if "generator" in data:
        generator, source = _load_generator(data["generator"], base, problems)
        seed_texts += [source] if source is not None else []
    for s in seeds:
        p = s if os.path.isabs(s) else os.path.join(base, s)
        try:
            with open(p) as f:
                seed_texts.append(f.read())
        except OSError as e:
            problems.append(f"seed '{s}': cannot read: {e.strerror}")

    # Tunables and their use in the seeds.
    tunables = {}
    raw = data.get("tunables", {})
    for name, spec in raw.items():
        if not NAME.fullmatch(name) or name in expr.FUNCTIONS:
            problems.append(f"tunables: '{name}' is not a valid name")
            continue
        tunables[name] = _tunable_values(name, spec, problems)
    used = set()
    for s, text in zip(seeds, seed_texts):
        for m in PLACEHOLDER.finditer(text):
            try:
                ns = expr.names(m.group(1))
            except expr.ExprError as e:
                problems.append(f"seed '{s}': placeholder {{{{{m.group(1)}}}}}: {e}")
                continue
            used |= ns
            for n in sorted(ns - set(tunables) if "tunables" not in mistyped else ()):
                problems.append(f"seed '{s}': placeholder {{{{{m.group(1)}}}}} uses '{n}', which is not a tunable")
    for n in sorted(set(tunables) - used):
        if seeds and seed_texts:
            problems.append(f"tunable '{n}' appears in no seed placeholder")

    # Start values and constraints.
    start = data.get("start") if "tunables" not in mistyped else None
    if start is not None:
        if not isinstance(start, dict) or set(start) != set(tunables):
            problems.append("'start' must give exactly one value per tunable")
        else:
            for k, v in start.items():
                if tunables.get(k) and (v not in tunables[k] or isinstance(v, bool)):
                    problems.append(f"start.{k} = {v!r} is not an allowed value of tunable '{k}'")
    constraints = data.get("constraints", [])
    start_vals = start if isinstance(start, dict) else {k: v[0] for k, v in tunables.items() if v}
    for c in constraints if "tunables" not in mistyped else ():
        try:
            bad = expr.names(c) - set(tunables)
            if bad:
                problems.append(f"constraint '{c}' uses unknown names {sorted(bad)}")
            elif len(start_vals) == len(tunables) and not expr.evaluate(c, start_vals):
                problems.append(f"constraint '{c}' is false for the start values {start_vals}")
        except expr.ExprError as e:
            problems.append(f"constraint '{c}': {e}")

    # Shapes, floor, tolerance, objective, budget, timeouts.
    shapes = []
    try:
        shapes = expand_shapes(data)
    except (TypeError, AttributeError):
        problems.append("'shapes' must be a list of objects and 'grid' an object of lists")
    for i, shape in enumerate(shapes):
        if not isinstance(shape, dict) or not shape or not all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in shape.values()):
            problems.append(f"shape {i} {shape!r}: sizes must be positive integers")
    if shapes and isinstance(shapes[0], dict) and any(
            isinstance(s, dict) and set(s) != set(shapes[0]) for s in shapes):
        problems.append("every shape must name the same symbols")
    if not shapes and not {"shapes", "grid"} & mistyped and (data.get("shapes") or data.get("grid")):
        problems.append("'shapes' and 'grid' give no shape: at least one problem shape is needed")
    if "inputs" in data and not {"shapes", "grid"} & mistyped:
        problems += inputs_mod.problems(data["inputs"], [s for s in shapes if isinstance(s, dict)],
                                        data.get("interface"))
    floor = data.get("floor")
    if "floor" in data:
        if not isinstance(floor, dict) or "bytes" not in floor or "flops" not in floor:
            problems.append("'floor' needs 'bytes' and 'flops' formulas over the shape symbols")
        else:
            for shape in shapes:
                for k in ("bytes", "flops"):
                    try:
                        v = expr.evaluate(floor[k], shape)
                        if not isinstance(v, (int, float)) or v < 0:
                            problems.append(f"floor.{k} gives {v!r} for shape {shape}")
                    except expr.ExprError as e:
                        problems.append(f"floor.{k} for shape {shape}: {e}")
    objective = data.get("objective", {"kind": "median"})
    kind = objective.get("kind") if isinstance(objective, dict) else None
    if kind not in ("median", "weighted"):
        problems.append(f"objective.kind must be 'median' or 'weighted', got {kind!r}")
    elif kind == "weighted":
        w = objective.get("weights")
        if not isinstance(w, list) or len(w) != len(shapes):
            problems.append(f"objective.weights must list one weight per shape ({len(shapes)} shapes)")
        elif not all(_is_num(x) and x >= 0 for x in w) or sum(w) <= 0:
            problems.append("objective.weights must be non-negative with a positive sum")
    elif "weights" in objective:
        problems.append("objective.weights given but objective.kind is 'median'")
    budget = dict(DEFAULT_BUDGET, **data.get("budget", {}))
    if isinstance(budget.get("gpu_evals"), (int, float)) and isinstance(budget.get("candidates"), (int, float)) \
            and budget["gpu_evals"] > budget["candidates"]:
        problems.append(f"budget.gpu_evals ({budget['gpu_evals']}) exceeds budget.candidates "
                        f"({budget['candidates']}): every GPU evaluation is of a candidate")
    if problems:
        raise TaskError(f"{path}: invalid task:\n  - " + "\n  - ".join(problems))
    task = Task(path, task_data, seed_texts, tunables, generator)
    if generator is not None:  # the start genome must give IR, or nothing can be evolved
        text = task._generate(task.start)
        if isinstance(text, TaskError):
            raise TaskError(f"{path}: invalid task:\n  - the start values give no IR: {text}")
    return task


def _load_generator(spec, base, problems):
    """((function, fixed) or None, the module's source or None) of a task's ``generator``:
    ``function(params, kernel)`` from the Python file ``path`` (relative to the task), called with
    ``fixed`` and the genome's values merged."""
    path = spec["path"] if os.path.isabs(spec["path"]) else os.path.join(base, spec["path"])
    name = "cake_task_generator_" + hashlib.sha256(os.path.abspath(path).encode()).hexdigest()[:12]
    source = None
    try:
        with open(path) as f:
            source = f.read()
        module_spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
    except (OSError, ImportError) as e:
        problems.append(f"generator: cannot load {spec['path']}: {e}")
        return None, source
    except Exception as e:  # the module's own code failed: say so rather than crash
        problems.append(f"generator: loading {spec['path']} raised {type(e).__name__}: {e}")
        return None, source
    function = getattr(module, spec["function"], None)
    if not callable(function):
        problems.append(f"generator: {spec['path']} has no function '{spec['function']}'")
        return None, source
    return (function, dict(spec.get("fixed", {}))), source
