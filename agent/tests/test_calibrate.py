"""cake calibrate on synthetic data: the model evaluator, metrics, the split and the fit."""
import json
import math
import os
import random
import unittest

from tests import util
from cake_agent import calibrate as cal

PROFILE = os.path.join(util.ROOT, "profiles", "h200.json")


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


class CalibrateTest(unittest.TestCase):
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
        truth = dict(self.prior)
        truth.update({"tensor_TFLOPS.bf16": 560.0, "dram_bandwidth_GBps": 3300.0,
                      "tma_latency_ns": 1100.0, "launch_overhead_us": 7.0})
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


if __name__ == "__main__":
    unittest.main()
