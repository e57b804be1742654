"""A defensive client for an OpenAI-compatible chat endpoint (stdlib only; llm.py uses it).

Not urllib: its timeout bounds each socket read, not the request (a server sending a byte every
few seconds holds it for ever), and it reads an answer whole, however large. Here every attempt has
a connect timeout, a read timeout (the longest silence) and a total deadline, kept by a watchdog
that shuts the socket down when the deadline passes (a blocked read returns at once); at most
``max_bytes`` of an answer are read; 429, 5xx and dropped connections are retried with exponential
backoff and jitter (a Retry-After of at most ``backoff_max`` seconds is honoured, a longer one ends
the retries). Every failure is an LLMError whose ``cls`` is a failure class: ``llm_unreachable``
(no connection, or dropped ones after the retries), ``llm_timeout``, ``llm_too_large``,
``llm_http_error`` (a status other than 200), ``llm_malformed`` (not HTTP, a truncated body, not
JSON, no choices[0].message.content).
"""
import http.client
import json
import math
import random
import socket
import threading
import time
import urllib.parse


class LLMConfigError(ValueError):
    """The environment does not configure the endpoint, or configures it wrongly."""


class LLMError(Exception):
    """A failed chat completion; ``cls`` is its failure class."""

    def __init__(self, cls, detail, retry=False, retry_after=None):
        super().__init__(f"{cls}: {detail}")
        self.cls, self.detail, self.retry, self.retry_after = cls, detail, retry, retry_after


def number(env, name, default, kind=float, positive=False):
    """``env[name]`` as a finite number >= 0 (> 0 when ``positive``), else LLMConfigError."""
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = kind(raw)
    except ValueError:
        raise LLMConfigError(f"{name}={raw!r} is not a {'number' if kind is float else 'whole number'}") from None
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        raise LLMConfigError(f"{name}={raw!r} must be {'> 0' if positive else '>= 0'}")
    return value


class Settings:
    """The client's limits from CAKE_LLM_* variables (docs/Harness.md); seconds unless said."""

    def __init__(self, env):
        self.timeout = number(env, "CAKE_LLM_TIMEOUT", 120.0, positive=True)  # one attempt, in total
        self.connect_timeout = min(number(env, "CAKE_LLM_CONNECT_TIMEOUT", 10.0, positive=True), self.timeout)
        self.read_timeout = min(number(env, "CAKE_LLM_READ_TIMEOUT", self.timeout, positive=True), self.timeout)
        self.max_bytes = number(env, "CAKE_LLM_MAX_BYTES", 1 << 20, int, positive=True)
        self.retries = number(env, "CAKE_LLM_RETRIES", 3, int)
        self.backoff = number(env, "CAKE_LLM_BACKOFF", 1.0)
        self.backoff_max = number(env, "CAKE_LLM_BACKOFF_MAX", 30.0)


class ChatClient:
    """POSTs chat completions to ``url`` (…/chat/completions) under ``settings``."""

    def __init__(self, url, headers, settings, sleep=time.sleep):
        parts = urllib.parse.urlsplit(url)
        try:
            port = parts.port
        except ValueError:
            port = -1
        if parts.scheme not in ("http", "https") or not parts.hostname or port == -1:
            raise LLMConfigError(f"CAKE_LLM_BASE_URL: not an http(s) URL: {url}")
        self.url, self.headers, self.settings, self.sleep = url, headers, settings, sleep
        self.https, self.host, self.port = parts.scheme == "https", parts.hostname, port
        self.path = parts.path + ("?" + parts.query if parts.query else "")
        self.jitter = random.Random()  # not the policy's rng: retries must not change its choices

    def complete(self, payload):
        """choices[0].message.content of the answer to ``payload``, after retries; raises LLMError."""
        body = json.dumps(payload).encode()
        attempts = self.settings.retries + 1
        for attempt in range(attempts):
            try:
                doc = self._attempt(body)
                break
            except LLMError as e:
                delay = self._delay(attempt, e.retry_after) if e.retry and attempt + 1 < attempts else None
                if delay is None:
                    raise LLMError(e.cls, f"{e.detail} (attempt {attempt + 1} of {attempts})") from None
                self.sleep(delay)
        try:
            content = doc["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise LLMError("llm_malformed", "response without choices[0].message.content") from None
        if not isinstance(content, str):
            raise LLMError("llm_malformed", "choices[0].message.content is not text")
        return content

    def _delay(self, attempt, retry_after):
        """Seconds before the next attempt; None when the server asks for more than backoff_max."""
        s = self.settings
        if retry_after is not None and retry_after > s.backoff_max:
            return None
        backoff = min(s.backoff_max, s.backoff * 2 ** attempt) * (0.5 + self.jitter.random() / 2)
        return max(backoff, retry_after or 0.0)

    def _attempt(self, body):
        s = self.settings
        cls = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
        conn = cls(self.host, self.port, timeout=s.connect_timeout)
        expired, opened, resp = threading.Event(), [], None

        def expire():  # the total deadline: unblock whatever read or write is under way
            expired.set()
            for sock in opened:  # the socket itself: conn.sock is None once a response owns it
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        watchdog = threading.Timer(s.timeout, expire)
        watchdog.daemon = True
        watchdog.start()
        try:
            try:
                conn.connect()
            except OSError as e:
                raise LLMError("llm_unreachable", f"{self.url}: cannot connect: {e}") from None
            opened.append(conn.sock)
            if expired.is_set():
                raise socket.timeout("total deadline")
            conn.sock.settimeout(s.read_timeout)
            conn.request("POST", self.path, body, self.headers)
            resp = conn.getresponse()
            if resp.status != 200:
                raise _status_error(resp)
            length = resp.getheader("Content-Length", "")
            if length.isdigit() and int(length) > s.max_bytes:
                raise LLMError("llm_too_large", f"answer of {length} bytes (CAKE_LLM_MAX_BYTES={s.max_bytes}): "
                                                "not read")
            data = _read_bounded(resp, s.max_bytes, expired)
        except LLMError:
            raise
        except (OSError, http.client.HTTPException) as e:
            raise _transport_error(e, expired.is_set(), s) from None
        finally:
            watchdog.cancel()
            if resp is not None:
                resp.close()
            conn.close()
        try:
            return json.loads(data.decode("utf-8"))
        except ValueError as e:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            raise LLMError("llm_malformed", f"answer is not JSON ({e}): {data[:200]!r}") from None


def _read_bounded(resp, max_bytes, expired):
    """The body, reading no more than ``max_bytes`` + 1 bytes (LLMError llm_too_large beyond)."""
    chunks, size = [], 0
    while True:
        chunk = resp.read1(min(65536, max_bytes + 1 - size))
        if expired.is_set():
            raise socket.timeout("total deadline")
        if not chunk:
            if resp.length:  # read1 does not raise at an early end, as read does
                raise http.client.IncompleteRead(b"".join(chunks), resp.length)
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > max_bytes:
            raise LLMError("llm_too_large", f"answer over CAKE_LLM_MAX_BYTES={max_bytes} bytes; stopped reading")


def _status_error(resp):
    """An HTTP status other than 200: 429 and 5xx may be retried."""
    try:
        snippet = resp.read(300).decode("utf-8", "replace").strip()
    except (OSError, http.client.HTTPException):
        snippet = ""
    after = resp.getheader("Retry-After", "").strip()  # seconds; the HTTP-date form is ignored
    wait = f" (Retry-After {after} s)" if after.isdigit() else ""
    return LLMError("llm_http_error", f"HTTP {resp.status} {resp.reason}{wait}: {snippet}"[:400],
                    retry=resp.status == 429 or resp.status >= 500,
                    retry_after=float(after) if after.isdigit() else None)


def _transport_error(e, expired, s):
    if expired or isinstance(e, socket.timeout):
        limit = f"total {s.timeout:g} s" if expired else f"read {s.read_timeout:g} s"
        return LLMError("llm_timeout", f"no complete answer within the {limit} timeout")
    if isinstance(e, (ConnectionResetError, ConnectionAbortedError, BrokenPipeError)):  # incl. RemoteDisconnected
        return LLMError("llm_unreachable", f"connection dropped: {e}", retry=True)
    if isinstance(e, http.client.IncompleteRead):
        return LLMError("llm_malformed", f"truncated answer: {len(e.partial)} bytes read, "
                                         f"{e.expected if e.expected is not None else 'more'} more expected")
    if isinstance(e, http.client.HTTPException):
        return LLMError("llm_malformed", f"not an HTTP reply: {type(e).__name__}: {str(e)[:200]}")
    return LLMError("llm_unreachable", f"{type(e).__name__}: {e}")
