"""The LLM policy against local stub endpoints (no network): recorded answers, and servers that
misbehave (truncated bodies, not HTTP, drip-feeding, oversized answers, 429/5xx, dropped connections)."""
import http.server
import json
import os
import random
import re
import socket
import threading
import time
import unittest
from unittest import mock

from tests import util
from cake_agent.policies import PolicyAbort
from cake_agent.policies.llm import LLMConfigError, LLMPolicy, extract_ir, fence
from cake_agent.policies.llm_client import ChatClient, LLMError, Settings
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
                if kind == "status":  # payload: a code, or (code, headers)
                    code, headers = payload if isinstance(payload, tuple) else (payload, {})
                    self.send_response(code)
                    for k, v in headers.items():
                        self.send_header(k, v)
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


def read_request(conn):
    """Reads one HTTP request (headers and Content-Length body) from a raw connection."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((int(h.split(b":")[1]) for h in head.split(b"\r\n") if h.lower().startswith(b"content-length:")), 0)
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return data


class RawServer:
    """A TCP server for replies http.server cannot make: connection i is answered by replies[i] (the
    last one repeats), a function of the socket, each in its own thread."""

    def __init__(self, replies):
        self.replies, self.connections = list(replies), 0
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return  # closed
            reply = self.replies[min(self.connections, len(self.replies) - 1)]
            self.connections += 1
            threading.Thread(target=self._answer, args=(conn, reply), daemon=True).start()

    @staticmethod
    def _answer(conn, reply):
        with conn:
            try:
                read_request(conn)
                reply(conn)
            except OSError:
                pass  # the client gave up: what these tests want

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)  # wakes the accept() under way; close alone does not
        except OSError:
            pass
        self.sock.close()


def ok_reply(content):
    """A raw reply function sending a well-formed chat completion."""
    body = json.dumps({"choices": [{"message": {"role": "assistant", "content": content}}]}).encode()
    return lambda conn: conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)


def drip(head, seconds, step=0.05):
    """A reply sending ``head`` then one byte every ``step`` seconds for ``seconds``."""
    def reply(conn):
        conn.sendall(head)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            conn.sendall(b" ")
            time.sleep(step)
    return reply


# A realistic transcript for vector_add: the model first widens the accesses to 8 x f32 (32 bytes,
# which the op verifier rejects), then, told why, does two 16-byte accesses per thread instead.
WIDE = """cake.kernel @vector_add(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                        %y: !cake.tensor<[N], f32> {cake.name = "y"},
                        %z: !cake.tensor<[N], f32> {cake.name = "z"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 1024)>} {
  %c8 = arith.constant 8 : index
  %c1024 = arith.constant 1024 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c1024 : index
  %off = arith.muli %tid, %c8 : index
  %i = arith.addi %base, %off : index
  %a = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> vector<8xf32>
  %b = cake.load %y[%i] masked : !cake.tensor<[N], f32> -> vector<8xf32>
  %s = arith.addf %a, %b : vector<8xf32>
  cake.store %s, %z[%i] masked : vector<8xf32>, !cake.tensor<[N], f32>
  cake.return
}"""


def two_passes(block):
    """Two 16-byte accesses per thread, ``block`` * 4 elements apart (each pass stays coalesced)."""
    return f"""cake.kernel @vector_add(%x: !cake.tensor<[N], f32> {{cake.name = "x"}},
                        %y: !cake.tensor<[N], f32> {{cake.name = "y"}},
                        %z: !cake.tensor<[N], f32> {{cake.name = "z"}})
    attributes {{target = "sm_90a", block = array<i64: {block}>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv {block * 8})>}} {{
  %c4 = arith.constant 4 : index
  %cpass = arith.constant {block * 4} : index
  %ctile = arith.constant {block * 8} : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %ctile : index
  %off = arith.muli %tid, %c4 : index
  %i0 = arith.addi %base, %off : index
  %i1 = arith.addi %i0, %cpass : index
  %a0 = cake.load %x[%i0] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  %b0 = cake.load %y[%i0] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  %a1 = cake.load %x[%i1] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  %b1 = cake.load %y[%i1] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  %s0 = arith.addf %a0, %b0 : vector<4xf32>
  %s1 = arith.addf %a1, %b1 : vector<4xf32>
  cake.store %s0, %z[%i0] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.store %s1, %z[%i1] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}}"""


TRANSCRIPT = [
    "Sure! Let me think about memory bandwidth first. (No code yet.)",  # garbage: recorded, asked again
    "Use 8-wide vectors so each thread issues half as many loads:\n```mlir\n" + WIDE + "\n```\n",
    "8 x f32 is 32 bytes, over the 16-byte limit. The offending line was:\r\n```MLIR\r\n"
    "%a = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> vector<8xf32>\r\n```\r\n"
    "Two 16-byte accesses per thread instead:\r\n```MLIR\r\n" + two_passes(128).replace("\n", "\r\n")
    + "\r\n```\r\n",
    "Larger blocks hide more latency:\n```Mlir\n" + two_passes(256) + "\n",  # the fence left open
]

# Stand-ins for cake-opt and cake-translate, for the runs without the C++ build: cake-opt rejects
# 8 x f32 accesses with the op verifier's message at their line; cake-translate writes a manifest.
FAKE_CAKE_OPT = r'''
import re, sys
if "--help" in sys.argv:
    sys.exit(0)
path = sys.argv[1]
bad = 0
for n, line in enumerate(open(path).read().splitlines(), 1):
    m = re.search(r"cake\.(load|store)\b.*vector<8xf32>", line)
    if m:
        bad += 1
        sys.stderr.write(f"{path}:{n}:{m.start() + 1}: error: '{m.group(0).split()[0]}' op expected an access "
                         "of 1, 2, 4, 8 or 16 bytes, got 32 bytes (8 x f32)\n")
sys.exit(1 if bad else 0)
'''
FAKE_CAKE_TRANSLATE = r'''
import json, sys
a = sys.argv[1:]
out = lambda flag: a[a.index(flag) + 1]
open(out("-o"), "wb").write(b"cubin")
json.dump({"kernels": [{"entry": "vector_add", "symbols": ["N"], "constraints": []}]}, open(out("--manifest"), "w"))
open(out("--ptxas-log"), "w").write("ptxas info : Compiling entry function 'vector_add' for 'sm_90a'\n"
                                   "ptxas info : Used 16 registers, 0 bytes smem\n")
'''


class ExtractTest(unittest.TestCase):
    def test_extract(self):
        self.assertEqual(extract_ir(fenced("cake.kernel @k() {}")), "cake.kernel @k() {}")
        self.assertEqual(extract_ir("```\ncake.kernel @k() {}\n```"), "cake.kernel @k() {}")
        self.assertIsNone(extract_ir("cake.kernel @k() {} (no fence)"))
        self.assertIsNone(extract_ir("```python\nprint(1)\n```"))

    def test_any_tag_case_crlf_several_blocks_unclosed(self):
        k = "cake.kernel @k() {\n  cake.return\n}"
        for tag in ("MLIR", "Mlir", "cake", "mlir ", ""):
            self.assertEqual(extract_ir(f"Answer:\n```{tag}\n{k}\n```\n"), k, tag)
        self.assertEqual(extract_ir(f"Answer:\n```MLIR\n{k}\n```\n".replace("\n", "\r\n")), k)
        # Several blocks: the last one holding a cake.kernel (a block without one is never chosen).
        old, new = k.replace("@k", "@old"), k.replace("@k", "@new")
        self.assertEqual(extract_ir(f"Was:\n```mlir\n{old}\n```\nNow:\n```mlir\n{new}\n```\n```\nshort\n```"), new)
        self.assertEqual(extract_ir(f"```mlir\n{new}\n```\nthe changed line:\n```mlir\n%a = arith.addf\n```"), new)
        self.assertEqual(extract_ir(f"Here:\n```mlir\n{k}\n"), k)  # the fence left open
        self.assertEqual(extract_ir(f"```mlir\n{k}```"), k)  # closed at the end of the last line


class ClientTest(unittest.TestCase):
    """Each way an endpoint can misbehave ends in one LLMError with its failure class, in bounded time."""

    def client(self, url, **env):
        self.sleeps = []
        settings = Settings({"CAKE_LLM_TIMEOUT": "5", "CAKE_LLM_BACKOFF": "0.01", "CAKE_LLM_BACKOFF_MAX": "1",
                             **{"CAKE_LLM_" + k.upper(): str(v) for k, v in env.items()}})
        return ChatClient(url + "/chat/completions", {"Content-Type": "application/json"}, settings,
                          sleep=self.sleeps.append)

    def raw(self, *replies):
        s = RawServer(replies)
        self.addCleanup(s.close)
        return s

    def stub(self, answers):
        s = Stub(answers)
        self.addCleanup(s.close)
        return s

    def fails(self, client, cls, within=3.0):
        start = time.monotonic()
        with self.assertRaises(LLMError) as cm:
            client.complete({"model": "m", "messages": []})
        self.assertLess(time.monotonic() - start, within)
        self.assertEqual(cm.exception.cls, cls, cm.exception.detail)
        return cm.exception.detail

    def test_truncated_body(self):
        s = self.raw(lambda c: c.sendall(b'HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n{"choices": ['))
        self.assertIn("truncated answer", self.fails(self.client(s.url), "llm_malformed"))

    def test_not_http(self):
        s = self.raw(lambda c: c.sendall(b"SSH-2.0-OpenSSH_9.6\r\n"))
        self.assertIn("not an HTTP reply", self.fails(self.client(s.url), "llm_malformed"))
        self.assertEqual(s.connections, 1)  # not retried

    def test_not_json(self):
        s = self.stub([("raw", "<html>gateway</html>")])
        self.assertIn("not JSON", self.fails(self.client(s.url), "llm_malformed"))

    def test_drip_feed_is_cut_at_the_total_timeout(self):
        """One byte every 50 ms never trips a 0.5 s read timeout; the 1 s total deadline holds, in
        the body and in the headers."""
        for head in (b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n", b"HTTP/1.1 200 OK\r\nX-Slow: ",
                     b"HTTP/1.0 200 OK\r\n\r\n"):  # (a body that ends when the connection does)
            s = self.raw(drip(head, seconds=30))
            detail = self.fails(self.client(s.url, timeout=1, read_timeout=0.5), "llm_timeout", within=5)
            self.assertIn("total 1 s", detail)

    def test_silence_trips_the_read_timeout(self):
        s = self.raw(lambda c: time.sleep(3))
        self.assertIn("read 0.3 s", self.fails(self.client(s.url, read_timeout=0.3), "llm_timeout", within=2))

    def test_oversized_answer(self):
        big = self.raw(lambda c: c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000000\r\n\r\n{"))
        self.assertIn("not read", self.fails(self.client(big.url, max_bytes=65536), "llm_too_large"))
        # Without a Content-Length the client stops reading at the bound.
        endless = self.raw(lambda c: c.sendall(b"HTTP/1.0 200 OK\r\n\r\n" + b"x" * (8 << 20)))
        self.assertIn("stopped reading", self.fails(self.client(endless.url, max_bytes=65536), "llm_too_large"))

    def test_429_then_success(self):
        s = self.stub([("status", (429, {"Retry-After": "0"})), ("content", "fine")])
        self.assertEqual(self.client(s.url).complete({"model": "m", "messages": []}), "fine")
        self.assertEqual(len(s.requests), 2)
        self.assertEqual(len(self.sleeps), 1)
        self.assertTrue(0.005 <= self.sleeps[0] <= 0.01)  # the backoff base (with jitter), Retry-After 0

    def test_long_retry_after_is_not_waited_for(self):
        s = self.stub([("status", (429, {"Retry-After": "3600"})), ("content", "too late")])
        self.assertIn("Retry-After 3600", self.fails(self.client(s.url), "llm_http_error"))
        self.assertEqual((len(s.requests), self.sleeps), (1, []))

    def test_500_forever_gives_up_after_bounded_backoff(self):
        s = self.stub([("status", 500)] * 10)
        detail = self.fails(self.client(s.url, retries=3), "llm_http_error")
        self.assertIn("HTTP 500", detail)
        self.assertIn("attempt 4 of 4", detail)
        self.assertEqual(len(s.requests), 4)
        self.assertEqual(len(self.sleeps), 3)
        for i, d in enumerate(self.sleeps):  # exponential, jittered, capped
            self.assertTrue(0.01 * 2 ** i / 2 <= d <= min(1, 0.01 * 2 ** i), self.sleeps)

    def test_other_4xx_is_not_retried(self):
        s = self.stub([("status", 401), ("content", "never asked")])
        self.assertIn("HTTP 401", self.fails(self.client(s.url), "llm_http_error"))
        self.assertEqual(len(s.requests), 1)

    def test_dropped_connection_is_retried(self):
        s = self.raw(lambda c: None, ok_reply("after a reset"))  # the first connection closes unanswered
        self.assertEqual(self.client(s.url).complete({"model": "m", "messages": []}), "after a reset")
        self.assertEqual((s.connections, len(self.sleeps)), (2, 1))

    def test_refused_connection_is_unreachable(self):
        s = self.raw(lambda c: None)
        url = s.url
        s.close()
        self.assertIn("attempt 1 of", self.fails(self.client(url), "llm_unreachable"))

    def test_bad_configuration(self):
        for env in ({"CAKE_LLM_TIMEOUT": "abc"}, {"CAKE_LLM_TIMEOUT": "-1"}, {"CAKE_LLM_TIMEOUT": "0"},
                    {"CAKE_LLM_TIMEOUT": "nan"}, {"CAKE_LLM_MAX_BYTES": "1.5"}, {"CAKE_LLM_RETRIES": "-2"},
                    {"CAKE_LLM_TURNS": "x"}, {"CAKE_LLM_BASE_URL": "localhost:8000"},
                    {"CAKE_LLM_BASE_URL": "http://host:port/v1"}):
            full = {"CAKE_LLM_BASE_URL": "http://127.0.0.1:9/v1", "CAKE_LLM_MODEL": "m", **env}
            with self.assertRaises(LLMConfigError, msg=env) as cm:
                LLMPolicy(None, random.Random(0), None, 1, env=full)
            self.assertIn(next(iter(env)), str(cm.exception))


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
                "CAKE_LLM_TIMEOUT": "5", "CAKE_LLM_BACKOFF": "0.01"}

    def test_config_required(self):
        with self.assertRaises(LLMConfigError):
            LLMPolicy(self.task, random.Random(0), None, 1, env={})

    def test_answers_good_and_malformed(self):
        db = util.open_db(self, os.path.join(self.tmp, "l.db"))
        run = db.new_run(self.task, "model-only", "llm", {})
        good, other = two_passes(128), two_passes(256)
        s = self.stub([("content", fenced(good)), ("content", "I cannot do that."), ("raw", "{not json"),
                       ("status", 500), ("content", fenced(good)), ("content", fenced(other))])
        pol = LLMPolicy(self.task, random.Random(0), db, run, env=dict(self.env(s.url), CAKE_LLM_RETRIES="0"),
                        max_failures=5)
        props = pol.propose([], 2)
        self.assertEqual([p.ir.strip() for p in props], [good, other])  # the repeated answer is dropped
        self.assertTrue(props[0].signature.startswith("llm:"))
        classes = [r["class"] for r in db.q("SELECT class FROM failures ORDER BY id")]
        self.assertEqual(classes, ["llm_malformed", "llm_malformed", "llm_http_error"])
        # The next request says why the previous answer was not used.
        self.assertIn("could not be used: llm_malformed", s.requests[2]["body"]["messages"][-1]["content"])
        self.assertIn("repeats a kernel", s.requests[5]["body"]["messages"][-1]["content"])
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

    def fake_tools(self):
        return self.fake_bin({"cake-opt": FAKE_CAKE_OPT, "cake-translate": FAKE_CAKE_TRANSLATE}, real=())

    def evolve(self, url, bin_dir, *extra, **env):
        """``cake evolve --policy llm`` against ``url``; (exit code, stdout, stderr, database)."""
        self.db_path = os.path.join(self.tmp, "e.db")
        with mock.patch.dict(os.environ, dict(self.env(url), **env)):
            rc, out, err = util.run_cli("evolve", TASK, "--db", self.db_path, "--policy", "llm", "--backend",
                                        "model-only", "--bin", bin_dir, "--quiet", "--jobs", "1",
                                        "--no-compile-cache", "--rng-seed", "5", *extra)
        return rc, out, err, util.open_db(self, self.db_path)

    def check_transcript(self, bin_dir):
        """TRANSCRIPT with --generation 1: the garbage answer is recorded and asked again (the run goes
        on); the rejected kernel's IR and diagnostics are in the next request; the corrected one compiles."""
        s = self.stub([("content", a) for a in TRANSCRIPT])
        rc, out, err, d = self.evolve(s.url, bin_dir, "--candidates", "3", "--generation", "1")
        self.assertEqual(rc, 0, err)
        self.assertEqual(d.run(1)["status"], "done")
        rows = d.candidates(1)
        self.assertEqual([r["status"] for r in rows], ["failed", "compiled", "compiled"])
        self.assertEqual(rows[0]["failure_class"], "verify_error")
        self.assertEqual([r["ir"].strip() for r in rows], [WIDE, two_passes(128), two_passes(256)])
        self.assertEqual([r["class"] for r in d.q("SELECT class FROM failures WHERE candidate_id IS NULL")],
                         ["llm_malformed"])
        msgs = [r["body"]["messages"] for r in s.requests]
        self.assertEqual(len(msgs), 4)
        roles = lambda m: [x["role"] for x in m]
        self.assertEqual(roles(msgs[1]), ["system", "user"])
        self.assertIn("could not be used: llm_malformed", msgs[1][-1]["content"])
        # The third request carries answer 1's IR as the assistant turn, then its diagnostics ...
        self.assertEqual(roles(msgs[2]), ["system", "user", "assistant", "user"])
        self.assertEqual(msgs[2][2]["content"], fence(WIDE))
        result = msgs[2][3]["content"]
        self.assertIn("verify_error", result)
        m = re.search(r"line (\d+): error (\[[^\]]*\] )?'cake.load' .*got 32 bytes", result)
        self.assertIsNotNone(m, result)
        # ... whose line number points at the rejected access in the IR the model was shown.
        shown = msgs[2][2]["content"].split("\n")[1:]
        self.assertRegex(shown[int(m.group(1)) - 1], r"cake\.load .*vector<8xf32>")
        # The fourth: both earlier answers, the second with its compile facts; its parent is shown above.
        self.assertEqual(roles(msgs[3]), ["system", "user", "assistant", "user", "assistant", "user"])
        self.assertEqual(msgs[3][4]["content"], fence(two_passes(128)))
        self.assertIn('"registers"', msgs[3][5]["content"])
        self.assertIn(f"Parent: candidate {rows[1]['id']} (above)", msgs[3][5]["content"])

    def test_transcript_with_fake_verifier(self):
        self.check_transcript(self.fake_tools())

    @util.needs_tools
    def test_transcript_with_real_verifier(self):
        self.check_transcript(util.BIN)

    def test_conversation_keeps_the_last_turns(self):
        blocks = (64, 128, 256, 512, 1024)
        s = self.stub([("content", fenced(two_passes(b))) for b in blocks])
        rc, out, err, d = self.evolve(s.url, self.fake_tools(), "--candidates", "5", "--generation", "1",
                                      CAKE_LLM_TURNS="2")
        self.assertEqual(rc, 0, err)
        last = s.requests[-1]["body"]["messages"]
        self.assertEqual([m["role"] for m in last], ["system", "user", "assistant", "user", "assistant", "user"])
        self.assertEqual([m["content"] for m in last if m["role"] == "assistant"],
                         [fence(two_passes(256)), fence(two_passes(512))])
        self.assertIn("Task: vector_add", last[1]["content"])

    def test_garbage_answers_abort_with_exit_3(self):
        """With --generation 1 a garbage answer does not end the run 'done': it is asked again, and
        after 3 failures in a row the run is aborted (exit 3)."""
        s = self.stub([("content", "I'd rather not write kernels today.")] * 5)
        rc, out, err, d = self.evolve(s.url, self.fake_tools(), "--generation", "1")
        self.assertEqual(rc, 3, err)
        self.assertIn("3 LLM failures in a row", err)
        self.assertEqual((d.run(1)["status"], len(d.candidates(1)), len(s.requests)), ("aborted", 0, 3))
        self.assertEqual([r["class"] for r in d.q("SELECT class FROM failures")], ["llm_malformed"] * 3)

    def test_broken_server_is_recorded_and_aborts_cleanly(self):
        """A truncated body, a reply that is not HTTP and a drip-feed past the deadline: three recorded
        failures, then exit 3 and the run aborted, never a traceback."""
        raw = RawServer([lambda c: c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 900\r\n\r\n{\"cho"),
                         lambda c: c.sendall(b"220 smtp.example.com ESMTP\r\n"),
                         drip(b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n", seconds=30)])
        self.addCleanup(raw.close)
        start = time.monotonic()
        rc, out, err, d = self.evolve(raw.url, self.fake_tools(), "--generation", "1", CAKE_LLM_TIMEOUT="1")
        self.assertLess(time.monotonic() - start, 15)
        self.assertEqual(rc, 3, err)
        self.assertEqual(d.run(1)["status"], "aborted")
        self.assertEqual([r["class"] for r in d.q("SELECT class FROM failures ORDER BY id")],
                         ["llm_malformed", "llm_malformed", "llm_timeout"])

    def test_bad_timeout_is_a_configuration_error(self):
        rc, out, err, d = self.evolve("http://127.0.0.1:9/v1", self.fake_tools(), CAKE_LLM_TIMEOUT="abc")
        self.assertEqual(rc, 2)
        self.assertIn("CAKE_LLM_TIMEOUT='abc'", err)
        self.assertEqual(d.run(1)["status"], "aborted")

    def test_a_policy_bug_does_not_leave_the_run_running(self):
        with mock.patch.object(LLMPolicy, "propose", side_effect=KeyError("bug")):
            with self.assertRaises(KeyError):
                self.evolve("http://127.0.0.1:9/v1", self.fake_tools())
        d = util.open_db(self, self.db_path)
        self.assertEqual(d.run(1)["status"], "aborted")
        self.assertIn("internal error: KeyError", d.run(1)["note"])

    def test_cli_exit_3_when_endpoint_unreachable(self):
        s = self.stub([])
        url = s.url
        s.close()
        rc, out, err, d = self.evolve(url, self.fake_tools())
        self.assertEqual(rc, 3)
        self.assertIn("llm_unreachable", err)
        self.assertEqual(d.run(1)["status"], "aborted")
        self.assertEqual(d.q("PRAGMA integrity_check")[0][0], "ok")

if __name__ == "__main__":
    unittest.main()
