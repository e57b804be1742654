"""libraries/kmeans/build.py --ray (cluster.py): the library's compiles as jobs on a Ray cluster,
the same outputs as --jobs, nothing compiled again whose outputs are current, and without the
package a refusal naming it (issue #19)."""
import json
import os
import subprocess
import sys
import unittest

from tests import util

try:
    import ray
except ImportError:
    ray = None

KMEANS = os.path.join(util.ROOT, "libraries", "kmeans")
BUILD = os.path.join(KMEANS, "build.py")


def subset(tmp):
    with open(os.path.join(KMEANS, "variants.json")) as f:
        names = [v["name"] for v in json.load(f)["variants"] if v["dtype"] == "float16"][:2]
    path = os.path.join(tmp, "subset.json")
    with open(path, "w") as f:
        json.dump(names, f)
    return path


class MissingRayTest(util.TempDir):
    def test_refused_naming_the_package(self):
        code = ("import runpy, sys; sys.modules['ray'] = None; "
                f"sys.argv = ['build.py', '--out', {os.path.join(self.tmp, 'o')!r}, '--subset', "
                f"{subset(self.tmp)!r}, '--tools', {util.BIN!r}, '--ray', 'local']; "
                f"runpy.run_path({BUILD!r}, run_name='__main__')")
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("build.py: --ray needs the Python package 'ray'", proc.stderr)
        self.assertIn("--jobs N", proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "o", "library.json")))


@unittest.skipIf(ray is None, "ray is not installed (scripts/setup.sh installs it)")
@util.needs_tools
class RayBuildTest(util.TempDir):
    def build(self, out, *how):
        proc = subprocess.run([sys.executable, BUILD, "--out", out, "--subset", subset(self.tmp), "--tools", util.BIN,
                               *how], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return proc

    def test_same_library_as_threads_and_current_outputs_kept(self):
        here, cluster = os.path.join(self.tmp, "here"), os.path.join(self.tmp, "cluster")
        self.build(here, "--jobs", "2")
        self.build(cluster, "--ray", "local")
        with open(os.path.join(here, "library.json")) as a, open(os.path.join(cluster, "library.json")) as b:
            self.assertEqual(json.load(a), json.load(b))
        kernels = sorted(os.listdir(os.path.join(here, "kernels")))
        self.assertEqual(kernels, sorted(os.listdir(os.path.join(cluster, "kernels"))))
        self.assertGreater(len([k for k in kernels if k.endswith(".cubin")]), 2)   # the auxiliary kernels too
        for k in kernels:
            if k.endswith((".cubin", ".mlir", ".json")):
                with open(os.path.join(here, "kernels", k), "rb") as a, \
                        open(os.path.join(cluster, "kernels", k), "rb") as b:
                    self.assertEqual(a.read(), b.read(), k)
        # Again on the cluster: every output is current (same IR, tools not newer), none rewritten.
        cubins = [os.path.join(cluster, "kernels", k) for k in kernels if k.endswith(".cubin")]
        before = [os.stat(c).st_mtime_ns for c in cubins]
        self.build(cluster, "--ray", "local")
        self.assertEqual([os.stat(c).st_mtime_ns for c in cubins], before)


if __name__ == "__main__":
    unittest.main()
