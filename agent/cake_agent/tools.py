"""The CAKE tools as subprocesses: locating them, running one step with a timeout, probing features.

Every step runs in its own process group; on timeout the whole group is killed. A step ends in one
of: ``ok``, ``error`` (non-zero exit), ``timeout``, ``crash`` (killed by a signal), ``missing`` (the
binary is absent). The failure class of a step is ``<step>_<status>`` (e.g. ``compile_timeout``).
"""
import os
import shutil
import signal
import subprocess
import time

TOOLS = ("cake-opt", "cake-translate", "cake-run")


class StepResult:
    """What one subprocess step did."""

    def __init__(self, step, argv, status, returncode, stdout, stderr, seconds):
        self.step, self.argv, self.status = step, argv, status
        self.returncode, self.stdout, self.stderr, self.seconds = returncode, stdout, stderr, seconds

    @property
    def ok(self):
        return self.status == "ok"

    @property
    def failure_class(self):
        return None if self.ok else f"{self.step}_{self.status}"

    def detail(self, limit=400):
        """A short human description (the tail of stderr), never a whole dump."""
        text = (self.stderr or "").strip() or (self.stdout or "").strip()
        if self.status == "timeout":
            return f"killed after {self.seconds:.1f} s (timeout)"
        if self.status == "crash":
            return f"killed by signal {-self.returncode}: " + text[-limit:]
        return text[-limit:]


def run_step(step, argv, timeout, cwd=None, env=None):
    """Runs ``argv`` with a timeout; never raises for tool failures (see the module docstring)."""
    start = time.monotonic()
    if not argv or not (os.path.isfile(argv[0]) or shutil.which(argv[0])):
        return StepResult(step, argv, "missing", None, "", f"tool not found: {argv[0] if argv else '?'}", 0.0)
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                errors="replace", cwd=cwd, env=env, start_new_session=True)
    except OSError as e:
        return StepResult(step, argv, "missing", None, "", f"cannot start {argv[0]}: {e.strerror}", 0.0)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        return StepResult(step, argv, "timeout", proc.returncode, out, err, time.monotonic() - start)
    status = "ok" if proc.returncode == 0 else ("crash" if proc.returncode < 0 else "error")
    return StepResult(step, argv, status, proc.returncode, out, err, time.monotonic() - start)


def _kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


_UNSET = object()
_cake_module = _UNSET


def bindings(*needed):
    """The ``cake`` Python bindings (docs/Embedding-Python.md) when importable and they have every
    attribute in ``needed`` (bindings older than a feature do not count), else None. Looked up
    once: the harness works without them, through the tools' command lines."""
    global _cake_module
    if _cake_module is _UNSET:
        try:
            import cake
        except (ImportError, OSError):  # not installed, or built for another Python
            cake = None
        _cake_module = cake if hasattr(cake, "__all__") and hasattr(cake, "Module") else None
    cake = _cake_module
    return cake if cake is not None and all(_has(cake, name) for name in needed) else None


def _has(module, dotted):
    for part in dotted.split("."):
        module = getattr(module, part, None)
    return module is not None


class ToolMissing(RuntimeError):
    """A required tool binary is absent."""


def user_rules_dir():
    """Where `cake learn rules --save` puts accepted rules by default: $CAKE_USER_RULES, else
    $XDG_DATA_HOME/cake/rules/learned (~/.local/share/cake/rules/learned). No tool writes into the
    source tree; a rule the team accepts is promoted into rules/learned/ with its lit test."""
    if os.environ.get("CAKE_USER_RULES"):
        return os.environ["CAKE_USER_RULES"]
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(data, "cake", "rules", "learned")


class Toolchain:
    """Where the tools are, and which optional features (diagnostics JSON, cost report) they have."""

    DIAG_FLAG = os.environ.get("CAKE_DIAGNOSTICS_FLAG", "--cake-diagnostics=json")
    COST_FLAG = os.environ.get("CAKE_COST_FLAG", "--cake-print-cost")

    def __init__(self, bin_dir=None, refs_dir=None):
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        build = os.environ.get("CAKE_BUILD_DIR", os.path.join(root, "build"))
        self.bin_dir = os.path.abspath(bin_dir or os.path.join(build, "bin"))
        self.refs_dir = os.path.abspath(refs_dir or os.path.join(build, "examples", "ref"))
        self._features = None
        # Rules-as-data files the verify step loads (--cake-load-rules): the shipped rules/, the
        # learned rules the team promoted into rules/learned/ (with their lit tests), and those
        # this user's runs learned (cake learn rules --save: user_rules_dir(), outside the tree).
        self.rules = []
        for folder in (os.path.join(root, "rules"), os.path.join(root, "rules", "learned"),
                       user_rules_dir()):
            if os.path.isdir(folder):
                self.rules += sorted(os.path.join(folder, f) for f in os.listdir(folder)
                                     if f.endswith((".mlir", ".pdl")))

    def path(self, tool):
        """Absolute path of a tool (it may not exist; run_step then reports ``missing``)."""
        return os.path.join(self.bin_dir, tool)

    def require(self, *tools):
        """Raises ToolMissing naming every absent tool."""
        absent = [t for t in tools if not os.access(self.path(t), os.X_OK)]
        if absent:
            raise ToolMissing(f"missing tool binary: {', '.join(self.path(t) for t in absent)} "
                              "(build them: ./scripts/build.sh, or pass --bin DIR)")

    def features(self):
        """Probes ``cake-opt --help`` once: {'diagnostics_json': bool, 'cost_report': bool}."""
        if self._features is None:
            res = run_step("probe", [self.path("cake-opt"), "--help"], timeout=30)
            text = res.stdout if res.ok else ""
            self._features = {
                "diagnostics_json": self.DIAG_FLAG.split("=")[0] in text,
                # The schedule verifier (every cake-verify-* pass) and rules as data.
                "schedule_verify": "--cake-verify " in text or "--cake-verify\n" in text,
                "load_rules": "--cake-load-rules" in text,
                "cost_report": self.COST_FLAG in text,
            }
        return self._features
