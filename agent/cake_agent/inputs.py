"""Generated inputs: a task's ``inputs`` field (docs/Tasks.md, "Generated inputs").

cake-run fills integer inputs with seeded values in [0, 64); a tensor whose values must mean
something (the offsets of packed variable-length sequences: non-decreasing from 0 to the token
count) is generated here per shape instead, written as a raw little-endian file and passed to
cake-run with ``--input NAME=PATH`` for the candidate and the reference alike (one run feeds
both). The values are a function of the spec and the shape only, so every measurement of a shape,
here or on another machine, sees the same ones.

Kinds:
- ``offsets``: ``parts + 1`` integers ``0 = o_0 <= o_1 <= ... <= o_parts = total`` (``total`` and
  ``parts``: formulas over the shape symbols). ``lengths``: ``"even"`` (parts differ by at most
  one), ``"random"`` (cut points drawn uniformly in [0, total] from ``seed`` and the shape, so empty
  parts occur) or a list with one list of ``parts`` lengths per shape, summing to ``total``.
"""
import hashlib
import os
import struct

from . import expr

KINDS = ("offsets",)
OFFSET_KEYS = {"kind", "dtype", "total", "parts", "lengths", "seed", "comment"}
DTYPES = {"i64": ("<q", 2 ** 63), "i32": ("<i", 2 ** 31)}
SPLITS = ("even", "random")


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _value(formula, shape):
    """A formula (string) or integer over the shape's symbols, as an int."""
    v = formula if _is_int(formula) else expr.evaluate(formula, shape)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != int(v):
        raise expr.ExprError(f"gives {v!r}, not an integer")
    return int(v)


def _cut(seed, shape, i, total):
    """The i-th random cut point in [0, total] for this seed and shape (sha256: the same anywhere)."""
    key = f"{seed}|{','.join(f'{k}={shape[k]}' for k in sorted(shape))}|{i}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "little") % (total + 1)


def offsets(spec, shape, index):
    """The offsets of one shape (the ``index``-th of the task) as a list of ints."""
    total, parts = _value(spec["total"], shape), _value(spec["parts"], shape)
    split = spec.get("lengths", "even")
    if split == "even":
        lengths = [total // parts + (i < total % parts) for i in range(parts)]
    elif split == "random":
        cuts = sorted(_cut(spec.get("seed", 0), shape, i, total) for i in range(parts - 1))
        bounds = [0] + cuts + [total]
        lengths = [b - a for a, b in zip(bounds, bounds[1:])]
    else:
        lengths = split[index]
    out = [0]
    for n in lengths:
        out.append(out[-1] + n)
    return out


def encode(spec, vals):
    fmt, _ = DTYPES[spec.get("dtype", "i64")]
    return b"".join(struct.pack(fmt, v) for v in vals)


def write(task, index, folder):
    """Writes the task's generated inputs for its ``index``-th shape into ``folder``; {name: path}
    (absolute when ``folder`` is). Nothing (an empty dict) for a task without ``inputs``."""
    if not task.inputs:
        return {}
    shape = task.shapes[index]
    os.makedirs(folder, exist_ok=True)
    tag = "_".join(f"{k}{v}" for k, v in shape.items())
    paths = {}
    for name, spec in task.inputs.items():
        path = os.path.join(folder, f"{name}.s{index}_{tag}.bin")
        with open(path, "wb") as f:
            f.write(encode(spec, offsets(spec, shape, index)))
        paths[name] = path
    return paths


def problems(inputs, shapes, interface=None):
    """Everything wrong with a task's ``inputs`` value (messages; empty when valid). ``interface``:
    the task's declared one, if any (then each name must be an input tensor of it, of the same dtype
    and of as many elements as are generated, per shape)."""
    if not isinstance(inputs, dict):
        return [f"'inputs' must be an object (input name -> generator), got {inputs!r}"]
    out = []
    declared = {}
    if isinstance(interface, dict) and isinstance(interface.get("params"), list):
        declared = {p.get("name"): p for p in interface["params"] if isinstance(p, dict)}
    for name, spec in inputs.items():
        at = f"inputs.{name}"
        if not isinstance(spec, dict):
            out.append(f"{at}: expected an object with 'kind' (one of {', '.join(KINDS)}), got {spec!r}")
            continue
        if spec.get("kind") not in KINDS:
            out.append(f"{at}.kind: expected one of {', '.join(KINDS)}, got {spec.get('kind')!r}")
            continue
        bad = [f"{at}.{k}: unknown key (known: {', '.join(sorted(OFFSET_KEYS))})" for k in sorted(set(spec) - OFFSET_KEYS)]
        dtype = spec.get("dtype", "i64")
        if dtype not in DTYPES:
            bad.append(f"{at}.dtype: expected one of {', '.join(DTYPES)}, got {dtype!r}")
        for k in ("total", "parts"):
            if k not in spec:
                bad.append(f"{at}: missing '{k}' (a formula over the shape symbols)")
            elif not (isinstance(spec[k], str) or (_is_int(spec[k]) and spec[k] >= 0)):
                bad.append(f"{at}.{k}: expected a formula (string) or a non-negative integer, got {spec[k]!r}")
        split = spec.get("lengths", "even")
        given = isinstance(split, list)
        if not given and split not in SPLITS:
            bad.append(f"{at}.lengths: expected 'even', 'random' or one list of lengths per shape, got {split!r}")
        elif given and len(split) != len(shapes):
            bad.append(f"{at}.lengths: {len(split)} lists for {len(shapes)} shapes (one per shape)")
        if "seed" in spec and (split != "random" or not (_is_int(spec["seed"]) and spec["seed"] >= 0)):
            bad.append(f"{at}.seed: a non-negative integer, with lengths 'random' only, got {spec['seed']!r}")
        param = declared.get(name)
        if declared and (param is None or param.get("kind", "tensor") != "tensor" or param.get("role") != "in"):
            bad.append(f"{at}: not an input tensor of the interface (generated values feed inputs only)")
        elif param is not None and param.get("dtype") not in (None, dtype):
            bad.append(f"{at}.dtype: {dtype} but the interface declares {param.get('dtype')}")
        if bad:
            out += bad
            continue
        limit = DTYPES[dtype][1]
        for i, shape in enumerate(shapes):
            where = f"{at} for shape {shape}"
            try:
                total, parts = _value(spec["total"], shape), _value(spec["parts"], shape)
            except expr.ExprError as e:
                out.append(f"{where}: {e}")
                break
            if parts < 1 or total < 0 or total >= limit:
                out.append(f"{where}: needs parts >= 1 and 0 <= total < 2^{limit.bit_length() - 1}, "
                           f"got parts {parts}, total {total}")
                break
            if given:
                ls = split[i]
                if not (isinstance(ls, list) and len(ls) == parts and all(_is_int(n) and n >= 0 for n in ls)
                        and sum(ls) == total):
                    out.append(f"{where}: lengths {ls!r} must be {parts} non-negative integers summing to {total}")
                    break
            want = _elements(param.get("shape"), shape) if param is not None else None
            if want is not None and want != parts + 1:
                out.append(f"{where}: {parts + 1} offsets, but the interface's shape {param['shape']} holds {want}")
                break
    return out


def _elements(dims, shape):
    """The element count of a declared tensor shape at ``shape`` (None if not computable)."""
    if not isinstance(dims, list):
        return None
    n = 1
    try:
        for d in dims:
            n *= _value(d, shape)
    except expr.ExprError:
        return None
    return n
