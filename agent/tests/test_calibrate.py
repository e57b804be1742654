"""cake calibrate on synthetic data: the model evaluator, metrics, the split and the fit, with
scipy (when installed) and with the standard-library fallback, and the two against each other."""
import io
import json
import math
import os
import random
import unittest
from contextlib import redirect_stderr
from unittest import mock

from tests import util
from cake_agent import calibrate as cal

PROFILE = os.path.join(util.ROOT, "profiles", "h200.json")
# The truth the fit must recover from synthetic() data.
TRUTH = {"tensor_TFLOPS.bf16": 560.0, "dram_bandwidth_GBps": 3300.0, "tma_latency_ns": 1100.0,
         "launch_overhead_us": 7.0}


def model(flops, nbytes, lat_iters):
    """A cost-report-like model: max(tensor, dram, latency) + launch, in seconds."""
    sm = {"param": "sm_count"}
    tensor = ["/", flops, ["/", ["*", 1e12, {"param": "tensor_TFLOPS.bf16"}], sm]]
    dram = ["/", nbytes, ["*", 1e9, {"param": "dram_bandwidth_GBps"}]]
    lat = ["*", lat_iters, ["*", 1e-9, {"param": "tma_latency_ns"}]]
    return ["+", ["max", tensor, dram, lat], ["*", 1e-6, {"param": "launch_overhead_us"}]]


def synthetic(truth, n_variants=24, shapes=3, noise=0.03, seed=5):
    rng = random.Random(seed)
    data = []
    for v in range(n_variants):
        kind = v % 3  # compute-, memory- or latency-heavy variants
        eff = rng.uniform(0.5, 1.0)
        for s in range(shapes):
            scale = 2.0 ** (2 * s)
            m = model(flops=eff * (4e8 if kind == 0 else 5e7) * scale,
                      nbytes=eff * (4e8 if kind == 1 else 2e7) * scale,
                      lat_iters=eff * (3e2 if kind == 2 else 10) * scale)
            t = cal.evaluate(m, truth) * 1e3 * math.exp(rng.gauss(0, noise))
            data.append({"variant": f"v{v}", "group": f"shape{s}", "sizes": {"S": s},
                         "time_ms": t, "report": {"model": m}})
    return data


def without_scipy():
    return mock.patch.object(cal, "USE_SCIPY", False)


class CalibrateTest(unittest.TestCase):
    """With scipy when it is installed; CalibrateFallbackTest runs the same tests without it."""

    def setUp(self):
        with open(PROFILE) as f:
            self.profile = json.load(f)
        self.prior = cal.profile_params(self.profile)

    def test_evaluate_operators(self):
        p = {"a": 2.0}
        self.assertEqual(cal.evaluate(["+", 1, ["*", 3, {"param": "a"}]], p), 7.0)
        self.assertEqual(cal.evaluate(["ceildiv", 7, 2], p), 4.0)
        self.assertEqual(cal.evaluate(["max", 1, ["-", 5, 2], ["min", 9, 8]], p), 8.0)
        self.assertEqual(cal.evaluate(["/", 1, 0], p), 0.0)
        with self.assertRaises(cal.CalibrationError):
            cal.evaluate({"param": "missing"}, p)

    def test_metrics(self):
        self.assertAlmostEqual(cal.spearman([1, 2, 3, 4], [10, 20, 30, 40]), 1.0)
        self.assertAlmostEqual(cal.spearman([1, 2, 3, 4], [4, 3, 2, 1]), -1.0)
        m = cal.metrics([1.0, 2.0, 5.0], [1.0, 1.5, 2.0], ["g", "g", "g"])
        self.assertAlmostEqual(m["within_1_25x"], 1 / 3)
        self.assertAlmostEqual(m["within_2x"], 2 / 3)
        self.assertAlmostEqual(m["mape_pct"], 100 * (0 + 0.5 / 1.5 + 3 / 2) / 3)
        self.assertEqual(m["top5_has_best"], "1/1")

    def test_split_is_by_variant_and_deterministic(self):
        data = synthetic(self.prior)
        train, test = cal.split_by_variant(data, 0.3)
        self.assertTrue(train and test)
        self.assertFalse({r["variant"] for r in train} & {r["variant"] for r in test})
        self.assertEqual(cal.split_by_variant(data, 0.3), (train, test))

    def test_fit_recovers_parameters_and_improves_held_out(self):
        truth = dict(self.prior, **TRUTH)
        data = synthetic(truth)
        new, summary = cal.calibrate(self.profile, data, holdout=0.3)
        after, before = summary["after"]["test"], summary["before"]["test"]
        self.assertGreaterEqual(after["spearman"], 0.95)
        self.assertEqual(after["within_1_25x"], 1.0)
        self.assertLess(after["mape_pct"], before["mape_pct"])
        self.assertLess(after["mape_pct"], 8.0)
        for name in ("tensor_TFLOPS.bf16", "dram_bandwidth_GBps", "tma_latency_ns"):
            got = summary["params"][name]["to"]
            self.assertLess(abs(math.log(got / truth[name])), 0.12, (name, got, truth[name]))
        self.assertEqual(new["version"], self.profile["version"] + 1)
        self.assertEqual(new["calibration"]["from_version"], self.profile["version"])
        self.assertAlmostEqual(new["params"]["tensor_TFLOPS"]["bf16"],
                               summary["params"]["tensor_TFLOPS.bf16"]["to"], places=3)
        # Parameters no training model uses are not touched.
        self.assertEqual(new["params"]["fp64_TFLOPS"], self.profile["params"]["fp64_TFLOPS"])

    def test_cli_writes_a_new_profile_version(self):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            dataset = os.path.join(tmp, "d.json")
            truth = dict(self.prior, **{"tensor_TFLOPS.bf16": 600.0})
            with open(dataset, "w") as f:
                json.dump({"records": synthetic(truth)}, f)
            out = os.path.join(tmp, "h200.v2.json")
            summary = os.path.join(tmp, "s.json")
            rc = cal.main([dataset, "--profile", PROFILE, "-o", out, "--summary-json", summary])
            self.assertEqual(rc, 0)
            with open(out) as f:
                doc = json.load(f)
            self.assertEqual(doc["schema"], "cake-hw-profile")
            self.assertEqual(doc["version"], self.profile["version"] + 1)
            with open(summary) as f:
                self.assertIn("after", json.load(f))
            self.assertEqual(cal.main([os.path.join(tmp, "none.json"), "--profile", PROFILE]), 2)
            # A file that is not JSON: the error names it (profile and records alike).
            bad = os.path.join(tmp, "bad.json")
            with open(bad, "w") as f:
                f.write("{bad")
            for argv in ([dataset, "--profile", bad], [bad, "--profile", PROFILE]):
                err = io.StringIO()
                with redirect_stderr(err):
                    self.assertEqual(cal.main(argv), 2)
                self.assertIn(f"{bad}: Expecting property name", err.getvalue())


class CalibrateFallbackTest(CalibrateTest):
    """Every test above on the standard-library code, what runs where scipy is not installed."""

    def setUp(self):
        super().setUp()
        patch = without_scipy()
        patch.start()
        self.addCleanup(patch.stop)

    def test_fallback_is_used(self):
        data = synthetic(dict(self.prior, **TRUTH))
        _, info = cal.fit(data, self.prior, list(TRUTH))
        self.assertEqual(info["solver"], "levenberg-marquardt")


@unittest.skipUnless(cal._import_scipy(), "scipy is not installed (scripts/setup.sh installs it)")
class ScipyAgreesWithFallbackTest(unittest.TestCase):
    """scipy and the fallback give the same Spearman values and the same fitted parameters."""

    def both(self, fn):
        """fn() with scipy, then without."""
        with_scipy = fn()
        with without_scipy():
            return with_scipy, fn()

    def test_spearman(self):
        rng = random.Random(11)
        cases = [([1, 2, 3, 4], [10, 20, 30, 40]), ([1, 2, 3, 4], [4, 3, 2, 1]),
                 ([1, 2, 2, 3, 5, 5], [6, 3, 3, 1, 0, 2]),  # ties on both sides
                 ([1, 1, 1], [1, 2, 3]), ([1], [2])]         # None: constant, too short
        cases += [([rng.random() for _ in range(40)], [rng.randint(0, 9) for _ in range(40)])
                  for _ in range(5)]
        for a, b in cases:
            got, want = self.both(lambda: cal.spearman(a, b))
            if want is None:
                self.assertIsNone(got, (a, b))
            else:
                self.assertAlmostEqual(got, want, places=12, msg=(a, b))

    def test_fit(self):
        with open(PROFILE) as f:
            profile = json.load(f)
        data = synthetic(dict(cal.profile_params(profile), **TRUTH))
        (_, with_scipy), (_, fallback) = self.both(lambda: cal.calibrate(profile, data, holdout=0.3))
        self.assertEqual(with_scipy["fit"]["solver"], "scipy.optimize.least_squares")
        self.assertEqual(fallback["fit"]["solver"], "levenberg-marquardt")
        self.assertEqual(with_scipy["params"].keys(), fallback["params"].keys())
        # Both reach the same minimum (they agree to ~1e-6 here); 0.1% leaves room for solver
        # tolerances on other platforms.
        for name, value in with_scipy["params"].items():
            self.assertLess(abs(math.log(value["to"] / fallback["params"][name]["to"])), 1e-3, name)
        self.assertAlmostEqual(with_scipy["fit"]["cost_after"], fallback["fit"]["cost_after"],
                               delta=1e-3 * fallback["fit"]["cost_after"])
        self.assertAlmostEqual(with_scipy["after"]["test"]["spearman"],
                               fallback["after"]["test"]["spearman"], places=6)


if __name__ == "__main__":
    unittest.main()
