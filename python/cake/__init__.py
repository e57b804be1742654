"""CAKE from Python: parse, verify, lower and compile CAKE IR without spawning processes.

The results are those of cake-opt and cake-translate (the same C++ code, through the CAKE C API).
Failures raise CakeError carrying MLIR's diagnostics; nothing is printed.

    import cake
    with cake.Context() as ctx:
        module = ctx.parse(open("kernel.mlir").read(), "kernel.mlir")
        ptx, cubin, manifest = ctx.compile(module)
"""
import ctypes
from dataclasses import dataclass, field
import json
import os
from typing import List, Optional, Tuple, Union

_HERE = os.path.dirname(os.path.abspath(__file__))
# Installed by pip (python_packages' pyproject.toml), the package carries libCakeCAPI.so in lib/:
# the extension's rpath ($ORIGIN/../../lib, right in a build tree or an install prefix) does not
# reach it there, so it is loaded first and the extension binds to it by its soname.
_CAPI = os.path.join(_HERE, "lib", "libCakeCAPI.so")
if os.path.exists(_CAPI):
    _CAPI_HANDLE = ctypes.CDLL(_CAPI)

from ._cake import ClosedError, _Context, _Module, _check_sizes, _evaluate  # noqa: E402 (after the library above)

# The cost model's hardware profiles: share/cake/profiles inside the package when pip installed it,
# else beside python_packages (build tree, install prefix); the C++ side reads CAKE_PROFILE_DIR (an
# explicit setting wins).
for _profiles in (os.path.join(_HERE, "share", "cake", "profiles"),
                  os.path.join(_HERE, os.pardir, os.pardir, "share", "cake", "profiles")):
    if os.path.isdir(_profiles):
        os.environ.setdefault("CAKE_PROFILE_DIR", os.path.normpath(_profiles))
        break

__all__ = ["CakeError", "ClosedError", "Context", "Diagnostic", "Location", "Module", "check_sizes",
           "compile", "cost", "evaluate_expression", "parse", "run_pipeline", "verify"]


@dataclass(frozen=True)
class Location:
    """Where a diagnostic points; file is "" (and line, column 0) for locations without a file."""
    file: str
    line: int
    column: int

    def __str__(self):
        return f"{self.file}:{self.line}:{self.column}" if self.file else "<unknown>"


@dataclass(frozen=True)
class Diagnostic:
    """One MLIR diagnostic. Findings of the cake-verify-* passes also carry their stable `rule` id
    (docs/Verification.md), a concrete fix `hint` and the `op` they are at; other diagnostics (parse
    and op-verifier errors, remarks) have None there."""
    severity: str
    location: Location
    message: str
    notes: Tuple["Diagnostic", ...] = field(default_factory=tuple)
    rule: Optional[str] = None
    hint: Optional[str] = None
    op: Optional[str] = None

    @staticmethod
    def _from_raw(raw):
        severity, file, line, column, message, notes, rule, hint, op = raw
        return Diagnostic(severity, Location(file, line, column), message,
                          tuple(Diagnostic._from_raw(note) for note in notes),
                          rule or None, hint or None, op or None)

    def __str__(self):
        text = f"{self.location}: {self.severity}: {self.message}"
        return "\n".join([text] + [str(note) for note in self.notes])


class CakeError(Exception):
    """A parse, verification, pipeline or compile failure; `diagnostics` says why."""

    def __init__(self, what: str, diagnostics: List[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join([what] + [str(d) for d in diagnostics]))


def _diagnostics(raw) -> List[Diagnostic]:
    return [Diagnostic._from_raw(record) for record in raw]


class Module:
    """A module parsed in a Context; unusable (ClosedError) once that context is closed."""

    def __init__(self, module: _Module):
        self._module = module

    def __str__(self):
        return str(self._module)

    def to_json(self) -> dict:
        """The module as a structured view (`cake-opt --cake-print-ir-json`'s schema "cake-ir"):
        {"ops": [{"name", "loc", "operands", "results", "attributes", "regions"}, ...]}."""
        return json.loads(self._module.to_json())

    def walk(self, name: Optional[str] = None):
        """Every op of the module, outer before inner, as the dicts of to_json() (each with its
        "regions" and a "parent" name added); only ops called `name` when given."""
        def visit(ops, parent):
            for op in ops:
                op["parent"] = parent
                if name is None or op["name"] == name:
                    yield op
                for region in op["regions"]:
                    for block in region:
                        yield from visit(block["ops"], op["name"])
        yield from visit(self.to_json()["ops"], None)


Source = Union[str, Module]


class Context:
    """An MLIR context with every upstream dialect, the cake dialect and all passes registered.
    Close it (or use `with`) to free it early; using it or its modules afterwards raises
    ClosedError."""

    def __init__(self):
        self._context = _Context()

    def close(self):
        self._context.close()

    @property
    def closed(self) -> bool:
        return self._context.closed

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def parse(self, source: str, filename: str = "<string>") -> Module:
        """Parses and verifies `source`; raises CakeError with the diagnostics on failure."""
        module, raw = self._context.parse(source, filename)
        if module is None:
            raise CakeError(f"cannot parse {filename}", _diagnostics(raw))
        return Module(module)

    def verify(self, source: Source, filename: str = "<string>",
               schedule: bool = True) -> List[Diagnostic]:
        """The diagnostics of checking `source` (text or Module; a Module is not changed); []
        when it is valid. Parse and op-verifier errors first; on IR that passes them, every
        cake-verify rule (the findings carry `rule`, `hint` and `op`, as cake-opt --cake-verify
        reports them; they judge CAKE IR, so lowered IR, a gpu.module, is an ops.raw-intrinsic
        finding there). `schedule=False` stops after the op verifiers."""
        if isinstance(source, Module):
            ok, raw = source._module.verify()
            module = source._module
        else:
            module, raw = self._context.parse(source, filename)
            ok = module is not None
        if not ok or not schedule:
            return _diagnostics(raw)
        # The verify passes only read the IR, so the module is the one the caller holds.
        return _diagnostics(module.run_pipeline("cake-verify")[1])

    def _module(self, source: Source, filename: str) -> Module:
        return source if isinstance(source, Module) else self.parse(source, filename)

    def run_pipeline(self, source: Source, pipeline: str, filename: str = "<string>") -> Module:
        """Runs a textual pass pipeline relative to builtin.module (e.g. "cake-lower-to-nvvm")
        on `source`; a Module is changed in place. Returns the module; raises CakeError."""
        module = self._module(source, filename)
        ok, raw = module._module.run_pipeline(pipeline)
        if not ok:
            raise CakeError(f"pass pipeline '{pipeline}' failed", _diagnostics(raw))
        return module

    def cost(self, source: Source, sizes=None, profile: str = "",
             filename: str = "<string>") -> dict:
        """The cost model's JSON report (docs/CostModel.md) as a dict. `sizes` maps problem-size
        symbols to values ({"M": 8192, ...} or "M=8192,..."); without them the report lists the
        sizes it needs and per-size formulas. `profile` names a hardware profile ("h200") or a
        file; by default each kernel's target's. The module is not changed."""
        module = self._module(source, filename)
        report, raw = module._module.cost(_sizes_text(sizes), profile)
        if report is None:
            raise CakeError("the cost model failed", _diagnostics(raw))
        return json.loads(report)

    def compile(self, source: Source, filename: str = "<string>", *, chip: str = "",
                features: str = "", opt_level: int = 3, cubin: bool = True,
                ptxas: Optional[str] = None,
                hang_timeout_ms: int = 0,
                index_bitwidth: int = 0,
                specialize=None) -> Tuple[str, Optional[bytes], Optional[dict]]:
        """Compiles `source` (left unchanged) as cake-translate does: returns (ptx, cubin bytes
        or None when cubin=False, manifest dict or None for already-lowered input). ptxas is
        found as cake-translate finds it unless given. hang_timeout_ms > 0 is the debug lowering
        against hangs (docs/Runner.md, "Hang reports"). index_bitwidth=32 lowers `index` to i32,
        within the bounds the manifest then states (docs/Manifest.md); 0 (the default) takes the
        kernels' index_bitwidth attribute, else 64. specialize ({"D": 53} or "D=53") fixes problem
        sizes at compile time (cake-translate --specialize; the manifest then requires them).
        Raises CakeError."""
        module = self._module(source, filename)
        outputs, raw = module._module.compile(chip, features, opt_level, cubin, ptxas or "",
                                              hang_timeout_ms, index_bitwidth, _sizes_text(specialize))
        if outputs is None:
            raise CakeError("compilation failed", _diagnostics(raw))
        ptx, binary, manifest, _report = outputs
        return ptx, (binary if cubin else None), (json.loads(manifest) if manifest else None)


_default_context: Optional[Context] = None


def _sizes_text(sizes) -> str:
    if isinstance(sizes, str):
        return sizes
    return ",".join(f"{name}={value}" for name, value in (sizes or {}).items())


def _default() -> Context:
    global _default_context
    if _default_context is None or _default_context.closed:
        _default_context = Context()
    return _default_context


def parse(source: str, filename: str = "<string>") -> Module:
    """Context.parse on a shared default context."""
    return _default().parse(source, filename)


def verify(source: Source, filename: str = "<string>", schedule: bool = True) -> List[Diagnostic]:
    """Context.verify on a shared default context."""
    return _default().verify(source, filename, schedule)


def run_pipeline(source: Source, pipeline: str, filename: str = "<string>") -> Module:
    """Context.run_pipeline on a shared default context."""
    return _default().run_pipeline(source, pipeline, filename)


def cost(source: Source, sizes=None, profile: str = "", filename: str = "<string>") -> dict:
    """Context.cost on the shared default context."""
    return _default().cost(source, sizes, profile, filename)


def compile(source: Source, filename: str = "<string>", **options):
    """Context.compile on a shared default context."""
    return _default().compile(source, filename, **options)


# The host ABI (docs/Manifest.md), with the reader and evaluator cake-run runs: a host that
# launches kernels itself judges a shape by the same code.

def check_sizes(manifest: str, sizes: dict, kernel: str = "") -> dict:
    """Judges `sizes` ({"N": 1000, ...}) against `kernel` (default: the only one) of the manifest
    text `manifest` as `cake-run --check-sizes` does: {"ok", "error", "kernel", "grid", "block"}
    (ok False and error naming the constraint, extent or grid that fails)."""
    return json.loads(_check_sizes(manifest, kernel, dict(sizes)))


def evaluate_expression(expression: str, sizes: dict) -> int:
    """The value of a manifest expression or constraint (1 holds, 0 not) for `sizes`; ValueError
    names a parse error, an unknown size, a division by zero or an overflow."""
    answer = json.loads(_evaluate(expression, dict(sizes)))
    if "error" in answer:
        raise ValueError(f"{expression!r}: {answer['error']}")
    return answer["value"]
