"""The LLM policy against a local stub endpoint replaying recorded answers (no network)."""
import http.server
import json
import os
import random
import threading
import unittest
from unittest import mock

from tests import util
from cake_agent.policies import PolicyAbort
from cake_agent.policies.llm import LLMConfigError, LLMPolicy, extract_ir
from cake_agent.task import load_task

TASK = os.path.join(util.TASKS, "vector_add.json")


class Stub:
    """An OpenAI-compatible /chat/completions endpoint answering from a list, recording requests."""

    def __init__(self, answers):
        self.answers, self.requests = list(answers), []
        stub = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                stub.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
                kind, payload = stub.answers.pop(0) if stub.answers else ("content", "no more answers")
                if kind == "status":
                    self.send_response(payload)
                    self.end_headers()
                    return
                data = payload if kind == "raw" else json.dumps(
                    {"choices": [{"message": {"role": "assistant", "content": payload}}]})
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(data.encode())

            def log_message(self, *a):
                pass

        self.server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_port}/v1"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def fenced(ir):
    return f"Here is a faster kernel.\n```mlir\n{ir}\n```\nIt uses wider accesses."


class ExtractTest(unittest.TestCase):
    def test_extract(self):
        self.assertEqual(extract_ir(fenced("cake.kernel @k() {}")), "cake.kernel @k() {}")
        self.assertEqual(extract_ir("```\ncake.kernel @k() {}\n```"), "cake.kernel @k() {}")
        self.assertIsNone(extract_ir("cake.kernel @k() {} (no fence)"))
        self.assertIsNone(extract_ir("```python\nprint(1)\n```"))


class LLMPolicyTest(util.TempDir):
    def setUp(self):
        super().setUp()
        self.task = load_task(TASK)
        self.seed_ir = self.task.instantiate(self.task.start_genome())

    def stub(self, answers):
        s = Stub(answers)
        self.addCleanup(s.close)
        return s

    def env(self, url):
        return {"CAKE_LLM_BASE_URL": url, "CAKE_LLM_MODEL": "stub-model", "CAKE_LLM_API_KEY": "k123",
                "CAKE_LLM_TIMEOUT": "5"}

    def test_config_required(self):
        with self.assertRaises(LLMConfigError):
            LLMPolicy(self.task, random.Random(0), None, 1, env={})

    def test_answers_good_and_malformed(self):
        db = util.open_db(self, os.path.join(self.tmp, "l.db"))
        run = db.new_run(self.task, "model-only", "llm", {})
        good = self.seed_ir.replace("%c0 = arith.constant 0", "%c0 = arith.constant 0")  # the IR as answered
        s = self.stub([("content", fenced(good)), ("content", "I cannot do that."), ("raw", "{not json"),
                       ("status", 500), ("content", fenced(good))])
        pol = LLMPolicy(self.task, random.Random(0), db, run, env=self.env(s.url), max_failures=5)
        props = pol.propose([], 5)
        self.assertEqual(len(props), 1)  # the duplicate answer is dropped
        self.assertEqual(props[0].ir.strip(), good.strip())
        self.assertTrue(props[0].signature.startswith("llm:"))
        classes = [r["class"] for r in db.q("SELECT class FROM failures ORDER BY id")]
        self.assertEqual(classes, ["llm_malformed", "llm_malformed", "llm_unreachable"])
        req = s.requests[0]
        self.assertEqual((req["path"], req["auth"], req["body"]["model"]), ("/v1/chat/completions", "Bearer k123",
                                                                          "stub-model"))
        self.assertIn("```mlir", req["body"]["messages"][1]["content"])
        self.assertIn("N=4097", req["body"]["messages"][1]["content"])

    def test_unreachable_endpoint_aborts(self):
        db = util.open_db(self, os.path.join(self.tmp, "l.db"))
        run = db.new_run(self.task, "model-only", "llm", {})
        s = self.stub([])
        url = s.url
        s.close()  # nothing listens there any more
        pol = LLMPolicy(self.task, random.Random(0), db, run, env=self.env(url))
        with self.assertRaises(PolicyAbort):
            pol.propose([], 5)

    @util.needs_tools
    def test_evolve_with_llm_feedback_in_prompt(self):
        """Answers are evaluated like any candidate; the next prompt carries the parent's feedback."""
        bad = self.seed_ir.replace("vector<4xf32>", "vector<8xf32>")
        s = self.stub([("content", fenced(bad))] + [("content", fenced(self.seed_ir.replace(
            "%c0 = arith.constant 0 : index", f"%c0 = arith.constant 0 : index\n  %cz{i} = arith.constant {i} : index")))
            for i in range(3)])
        db = os.path.join(self.tmp, "e.db")
        with mock.patch.dict(os.environ, self.env(s.url)):
            rc, out, err = util.run_cli("evolve", TASK, "--db", db, "--policy", "llm", "--backend", "model-only",
                                        "--bin", util.BIN, "--candidates", "4", "--generation", "1", "--quiet",
                                        "--rng-seed", "5")
        self.assertEqual(rc, 0, err)
        d = util.open_db(self, db)
        rows = d.candidates(1)
        self.assertEqual([r["status"] for r in rows], ["failed", "compiled", "compiled", "compiled"])
        self.assertEqual(rows[0]["failure_class"], "verify_error")
        prompts = [r["body"]["messages"][1]["content"] for r in s.requests]
        self.assertNotIn("failed", prompts[0])
        self.assertIn("The last proposal failed", prompts[1])
        self.assertIn("verify_error", prompts[1])
        self.assertRegex(prompts[1], r"line \d+: error 'cake.load' expected an access .* got 32 bytes")
        self.assertIn('"registers"', prompts[2])  # the parent's compile facts

    def test_cli_exit_3_when_endpoint_unreachable(self):
        s = self.stub([])
        url = s.url
        s.close()
        db = os.path.join(self.tmp, "u.db")
        with mock.patch.dict(os.environ, self.env(url)):
            rc, out, err = util.run_cli("evolve", TASK, "--db", db, "--policy", "llm", "--backend", "model-only",
                                        "--bin", util.BIN, "--quiet")
        self.assertEqual(rc, 3)
        self.assertIn("llm_unreachable", err)
        d = util.open_db(self, db)
        self.assertEqual(d.run(1)["status"], "aborted")
        self.assertEqual(d.q("PRAGMA integrity_check")[0][0], "ok")


if __name__ == "__main__":
    unittest.main()
