"""Shared test helpers: paths, the real tools (when built), fake tool scripts, temp folders."""
import functools
import json
import os
import subprocess
import shutil
import stat
import sys
import tempfile
import unittest

AGENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(AGENT)
TASKS = os.path.join(AGENT, "tasks")
BIN = os.environ.get("CAKE_TEST_BIN", os.path.join(os.environ.get("CAKE_BUILD_DIR", os.path.join(ROOT, "build")), "bin"))
REFS = os.path.join(os.path.dirname(BIN), "examples", "ref")
if AGENT not in sys.path:
    sys.path.insert(0, AGENT)


def have_tools():
    return all(os.access(os.path.join(BIN, t), os.X_OK) for t in ("cake-opt", "cake-translate"))


# Under lit (test/Agent/agent-unittests.test sets CAKE_REQUIRE_TOOLS=1) the build has made cake-opt and
# cake-translate, so a test that would skip for want of them (or of a feature this build's cake-opt
# always has: the cost model, rules as data) fails instead: CI must not pass with half the tests
# silently skipped. What CI may legitimately lack still skips there: a GPU (no test needs one; cake-run
# is a stand-in script), ptxas (test_disk), /dev/full, and the opposite case of a feature (a cake-opt
# without the cost model).
REQUIRE_TOOLS = os.environ.get("CAKE_REQUIRE_TOOLS") == "1"
_NO_TOOLS = f"cake-opt/cake-translate not built in {BIN}"


def needs_tools(obj):
    """Decorates a test (or a test class) that runs the real cake-opt / cake-translate: skipped
    without them, except under CAKE_REQUIRE_TOOLS=1 where that is a failure."""
    if have_tools():
        return obj
    if not REQUIRE_TOOLS:
        return unittest.skip(_NO_TOOLS + " (lit builds them first)")(obj)
    why = _NO_TOOLS + ", and CAKE_REQUIRE_TOOLS=1 says the build has them"
    if isinstance(obj, type):
        def setUp(self):
            self.fail(why)
        obj.setUp = setUp
        return obj

    @functools.wraps(obj)
    def fail(self, *args, **kwargs):
        self.fail(why)
    return fail


def require_feature(case, present, why):
    """Skips ``case`` when the built tools lack a feature (``why``), or fails under CAKE_REQUIRE_TOOLS=1,
    where the tools are this build's and have every feature the tests ask for."""
    if present:
        return
    if REQUIRE_TOOLS:
        case.fail(f"{why}, and CAKE_REQUIRE_TOOLS=1 says this build's tools have it")
    case.skipTest(why)


class TempDir(unittest.TestCase):
    """A test case with a fresh folder in self.tmp."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="cake-agent-test-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def write(self, name, text, mode=None):
        path = os.path.join(self.tmp, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        if mode:
            os.chmod(path, mode)
        return path

    def write_json(self, name, doc):
        return self.write(name, json.dumps(doc))

    def fake_bin(self, scripts, real=("cake-opt", "cake-translate")):
        """A bin folder with the real tools named in ``real`` linked in and python ``scripts`` {name: body}."""
        d = os.path.join(self.tmp, "bin")
        os.makedirs(d, exist_ok=True)
        for t in real:
            if os.path.exists(os.path.join(BIN, t)):
                os.symlink(os.path.join(BIN, t), os.path.join(d, t))
        for name, body in scripts.items():
            self.write(os.path.join("bin", name), "#!" + sys.executable + "\n" + body,
                       stat.S_IRWXU)
        return d


def have_cuda_headers():
    return os.path.isfile(os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "include", "cuda.h"))


def fake_cuda_driver(tmp):
    """Builds agent/tests/data/fake_libcuda.c as TMP/fake/libcuda.so.1 (a libcuda that runs
    nothing and logs the calls that matter to $FAKE_CUDA_LOG); returns the folder, for
    LD_LIBRARY_PATH. Needs cuda.h and a C compiler (callers skip without them)."""
    fake = os.path.join(tmp, "fake")
    os.makedirs(fake)
    cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    subprocess.run(["cc", "-shared", "-fPIC", "-I" + os.path.join(cuda, "include"),
                    os.path.join(os.path.dirname(__file__), "data", "fake_libcuda.c"),
                    "-o", os.path.join(fake, "libcuda.so.1")], check=True)
    return fake

# A stand-in for cake-run on the GPU machine, for tests only: it echoes the planned sizes, seed and
# cubin, and reports FAKE_STATUS / FAKE_TIME_MS (or FAKE_SEED_DELTA to answer for another seed;
# FAKE_TIME_FILE: a JSON object cubin -> ms for the cubins it names).
# `cake-run --check-sizes` (the evaluator's shape check at compile time): every size is fine.
FAKE_CHECK_SIZES = r'''
import json as _json, sys as _sys
if "--check-sizes" in _sys.argv:
    print(_json.dumps({"status": "ok", "exit_code": 0, "error": None}))
    _sys.exit(0)
'''

FAKE_CAKE_RUN = FAKE_CHECK_SIZES + r'''
import json, os, sys, time
a = sys.argv[1:]
def opt(n):
    return a[a.index(n) + 1] if n in a else None
if os.environ.get("FAKE_HANG"):
    time.sleep(60)
sizes = {k: int(v) for k, v in (kv.split("=") for kv in opt("--sizes").split(","))}
status = os.environ.get("FAKE_STATUS", "ok")
times = json.load(open(os.environ["FAKE_TIME_FILE"])) if os.environ.get("FAKE_TIME_FILE") else {}  # cubin -> ms
codes = {"ok": 0, "wrong_result": 1, "bad_arguments": 2, "launch_failure": 3, "timeout": 4, "no_device": 5}
rec = {"status": status, "exit_code": codes[status], "error": None if status == "ok" else "fake " + status,
       "cubin": opt("--cubin"), "sizes": sizes, "seed": int(opt("--seed")) + int(os.environ.get("FAKE_SEED_DELTA", "0")),
       "device": "fake-gpu", "time_ms": float(times.get(opt("--cubin"), os.environ.get("FAKE_TIME_MS", "1.0")))
       if status == "ok" else None,
       "outputs": [{"name": n, "rel_err": 1e-7, "checked_by": "rel_l2", "pass": status == "ok"}
                   for n in ",".join(filter(None, (opt("--outputs"), opt("--inouts")))).split(",") if n]
                  or [{"name": "z", "rel_err": 1e-7, "checked_by": "rel_l2", "pass": status == "ok"}]}
print(json.dumps(rec))
sys.exit(codes[status])
'''


def run_cli(*argv):
    """Runs ``cake ARGV`` in-process; returns (exit code, stdout, stderr)."""
    import io
    from contextlib import redirect_stderr, redirect_stdout
    from cake_agent import cli
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = cli.main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


def open_db(case, path):
    from cake_agent.db import Database
    db = Database(path)
    case.addCleanup(db.close)
    return db
