"""A task's kernel interface: its parameters and which tensors are inputs, outputs or both.

The interface is what a candidate may not change. ``cake-opt --cake-verify=interface=FILE`` rejects
a candidate whose parameters differ, that never writes an output or that writes an input, before
it is compiled (rule ids ``interface.*``, docs/Verification.md); ``cake-run --outputs/--inouts``
then compares every declared output against the reference whatever the candidate's manifest says,
and poisons the ``out`` ones so that an element left unwritten fails the run.

A task declares it in its ``interface`` field (docs/Tasks.md); a task without one gets the seed's:
the parameters and accesses of the start candidate's manifest, which the harness trusts because
the seed must pass before a run starts (evolve's environment check).
"""
import json
import os
import threading

ROLES = ("in", "out", "inout")
KINDS = ("tensor", "scalar")
PARAM_KEYS = {"name", "kind", "dtype", "shape", "role", "comment"}
KEYS = {"kernel", "symbols", "params", "comment"}
ACCESS_ROLE = {"read": "in", "write": "out", "readwrite": "inout"}


def problems(value, where="interface"):
    """Everything wrong with an ``interface`` value (a list of messages; empty when valid)."""
    if not isinstance(value, dict):
        return [f"{where}: expected an object with kernel, params (and symbols)"]
    out = [f"{where}: unknown field '{k}'" for k in sorted(set(value) - KEYS)]
    if not isinstance(value.get("kernel"), str) or not value.get("kernel"):
        out.append(f"{where}.kernel: expected the kernel's name (a string)")
    symbols = value.get("symbols")
    if symbols is not None and not (isinstance(symbols, list) and all(isinstance(s, str) for s in symbols)):
        out.append(f"{where}.symbols: expected a list of names")
    params = value.get("params")
    if not isinstance(params, list) or not params:
        out.append(f"{where}.params: expected a non-empty list of parameters")
        return out
    names = set()
    for i, p in enumerate(params):
        at = f"{where}.params[{i}]"
        if not isinstance(p, dict):
            out.append(f"{at}: expected an object")
            continue
        out += [f"{at}: unknown field '{k}'" for k in sorted(set(p) - PARAM_KEYS)]
        name, kind = p.get("name"), p.get("kind", "tensor")
        if not isinstance(name, str) or not name:
            out.append(f"{at}.name: expected a string")
        elif name in names:
            out.append(f"{at}.name: '{name}' declared twice")
        names.add(name)
        if kind not in KINDS:
            out.append(f"{at}.kind: expected one of {', '.join(KINDS)}, got {kind!r}")
        if "dtype" in p and not isinstance(p["dtype"], str):
            out.append(f"{at}.dtype: expected a string")
        shape = p.get("shape")
        if shape is not None and not (isinstance(shape, list) and
                                      all(isinstance(e, (str, int)) and not isinstance(e, bool) for e in shape)):
            out.append(f"{at}.shape: expected a list of symbols or integers")
        if kind == "tensor" and p.get("role") not in ROLES:
            out.append(f"{at}.role: expected one of {', '.join(ROLES)}, got {p.get('role')!r}")
    if not any(isinstance(p, dict) and p.get("role") in ("out", "inout") for p in params):
        out.append(f"{where}.params: expected at least one output (role out or inout)")
    return out


class Interface:
    """A validated interface (see ``problems``)."""

    def __init__(self, data, source="task"):
        self.data, self.source = data, source
        self.kernel = data["kernel"]

    def tensors(self, *roles):
        return [p["name"] for p in self.data["params"] if p.get("kind", "tensor") == "tensor"
                and p.get("role") in roles]

    def run_flags(self):
        """cake-run's arguments that declare the outputs (every other tensor is an input)."""
        flags = []
        if self.tensors("out"):
            flags += ["--outputs", ",".join(self.tensors("out"))]
        if self.tensors("inout"):
            flags += ["--inouts", ",".join(self.tensors("inout"))]
        return flags

    def write(self, folder):
        """Writes the interface as cake-opt reads it; returns the path (same content, same file)."""
        path = os.path.join(folder, "interface.json")
        text = json.dumps(self.data, sort_keys=True)
        os.makedirs(folder, exist_ok=True)
        try:
            with open(path) as f:
                if f.read() == text:
                    return path
        except OSError:
            pass
        tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"  # evaluator threads share the pid
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
        return path


def from_manifest(manifest, kernel=None):
    """The interface a compiled kernel has (its manifest's tensors, scalars and accesses)."""
    kernels = manifest.get("kernels") or []
    k = next((k for k in kernels if k.get("entry") == kernel), kernels[0] if kernels else None)
    if k is None:
        raise ValueError("the manifest has no kernel")
    params = []
    for p in k.get("params", []):
        if p.get("kind") == "tensor":
            shape = [int(e) if isinstance(e, str) and e.isdigit() else e for e in p.get("shape", [])]
            params.append({"name": p["name"], "kind": "tensor", "dtype": p["dtype"],
                           "shape": shape, "role": ACCESS_ROLE[p.get("access", "read")]})
        elif p.get("kind") == "scalar":
            params.append({"name": p["name"], "kind": "scalar", "dtype": p["dtype"]})
    return Interface({"kernel": k["entry"], "symbols": list(k.get("symbols", [])), "params": params},
                     source="seed")
