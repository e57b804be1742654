"""Jobs on a Ray cluster with bounded retries and deadlines: the ray backend's layer over Ray.

Ray is optional: ``connect`` imports it and raises backends.BackendUnavailable, naming the package,
where it is missing; nothing outside ray_pool.py and ray_backend.py imports it.

A ``Pool`` runs jobs that each hold one unit of a cluster resource: ``CPU`` (compile jobs) or
``GPU`` (measure jobs; Ray pins such a job to its GPU through CUDA_VISIBLE_DEVICES). It keeps at
most as many jobs in flight as the cluster has units, so a job's deadline counts from when it could
start, not from its place in a queue. A job whose worker or node is lost (Ray's system errors: the
worker died, the node died, its result was lost) or that has not answered by its deadline (it is
then cancelled and its worker killed) is submitted again, ``retries`` more times at most; Ray
places it on whatever worker is free, so a dead node is not asked again. After that the job's
future holds ``lost(cls, detail)`` with class ``worker_lost`` or ``worker_timeout``: machine
failures (learn.INFRA_CLASSES), never a candidate's. An exception raised by the job's own code is
not retried (a bug fails the same way twice): its future raises it.
"""
import collections
import concurrent.futures
import os
import socket
import threading
import time

from .backends import BackendUnavailable

# Workers import cake_agent from the same checkout path (the tools must be there too: --bin).
AGENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# CUDA_DEVICE_ORDER: CUDA numbers GPUs as nvidia-smi does, so a job's GPU can be named (gpu_identity).
RUNTIME_ENV = {"env_vars": {"PYTHONPATH": AGENT, "CUDA_DEVICE_ORDER": "PCI_BUS_ID"}}


def import_ray():
    """The ray module, or BackendUnavailable naming the missing package and how to install it."""
    try:
        import ray
    except ImportError as e:
        raise BackendUnavailable(f"--backend ray needs the Python package 'ray', which is not installed ({e}); "
                                 "install it with 'python3 -m pip install ray', or use --backend local, "
                                 "batch or model-only") from None
    return ray


# Ray retries an unreachable head for minutes; a TCP probe first answers in seconds.
PROBE_TIMEOUT_S = 5.0


def head_endpoint(address):
    """(host, port) that ``address`` names, or None for 'auto', 'local' and a new local cluster,
    which have no endpoint to probe ('ray://host:port' and 'host:port'; Ray's default port 6379)."""
    if not address or address in ("auto", "local"):
        return None
    rest = address[len("ray://"):] if address.startswith("ray://") else address
    host, sep, port = rest.rpartition(":")
    if not sep or rest.endswith("]"):       # no port ('[::1]': the colons are the address's)
        return rest.strip("[]"), 10001 if address.startswith("ray://") else 6379
    if not port.isdigit():
        raise BackendUnavailable(f"the Ray address '{address}' has no port number after ':'")
    return host.strip("[]"), int(port)


def probe(address, timeout_s=PROBE_TIMEOUT_S):
    """Raises BackendUnavailable unless a TCP connection to the head that ``address`` names opens
    within ``timeout_s``."""
    endpoint = head_endpoint(address)
    if endpoint is None:
        return
    try:
        socket.create_connection(endpoint, timeout=timeout_s).close()
    except OSError as e:
        reason = "no answer" if isinstance(e, socket.timeout) else (e.strerror or str(e))
        raise BackendUnavailable(f"cannot reach the Ray head at {address} ({endpoint[0]}:{endpoint[1]}: "
                                 f"{reason} within {timeout_s:g} s); start it with 'ray start --head' "
                                 "there, or check the address") from None


def connect(address=None):
    """Joins the cluster at ``address`` ('auto', 'ray://host:10001', ...) or, without one, starts a
    local cluster of this machine; an already connected process (a test, a script) keeps its cluster.
    A head that does not answer is BackendUnavailable after PROBE_TIMEOUT_S, not Ray's minutes of retries."""
    ray = import_ray()
    if not ray.is_initialized():
        probe(address)
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise BackendUnavailable(f"cannot connect to the Ray cluster at {address or 'a new local cluster'}: "
                                     f"{' '.join(str(e).split())[:300]}") from None
    return ray


class Lost:
    """What a job's future holds when every attempt was lost to the machine."""

    def __init__(self, cls, detail):
        self.cls, self.detail = cls, detail


class _Job:
    def __init__(self, remote, args, deadline_s, finish, lost):
        self.remote, self.args, self.deadline_s = remote, args, deadline_s
        self.finish, self.lost = finish, lost
        self.future = concurrent.futures.Future()
        self.future.attempts = 0  # read by tests and reports: how many times the job was started
        self.due = None


class Pool:
    """Jobs of one resource kind on the cluster (see the module docstring)."""

    def __init__(self, ray, resource, retries=2):
        self.ray, self.resource, self.retries = ray, resource, retries
        self.options = {"num_cpus": 1} if resource == "CPU" else {"num_cpus": 0, "num_gpus": 1}
        self.queue, self.running = collections.deque(), {}  # running: job -> ObjectRef
        # Attempts given up at their deadline hold their unit until Ray has killed the worker (5 s
        # for a stopped one; a dead node's are released when Ray declares it dead) or a minute has
        # passed: else the next attempt would wait for that unit on its own clock.
        self.cancelled = {}  # ObjectRef -> monotonic time its unit counts as free
        # Reentrant: a result already there runs its callback (_done) at once, inside _start.
        self.lock, self.wake, self.closed = threading.RLock(), threading.Event(), False
        self._units, self._units_at = 1, -1e9
        threading.Thread(target=self._loop, name=f"cake-ray-{resource}", daemon=True).start()

    def submit(self, remote, args, deadline_s, finish=None, lost=Lost):
        """A future of ``finish(result)`` (run here, on the driver) or of ``lost(cls, detail)``."""
        job = _Job(remote, args, deadline_s, finish or (lambda r: r), lost)
        with self.lock:
            if self.closed:
                raise RuntimeError("the pool is shut down")
            self.queue.append(job)
        self.wake.set()
        return job.future

    def shutdown(self):
        """Cancels what has not finished (an interrupted run); the dispatcher thread ends."""
        with self.lock:
            self.closed = True
            jobs = list(self.queue) + list(self.running)
            refs = list(self.running.values())
            self.queue.clear()
            self.running.clear()
        for ref in refs:
            self._cancel(ref)
        for job in jobs:
            job.future.cancel()
        self.wake.set()

    def units(self):
        # The cluster's units now (nodes come and go), read again every few seconds.
        now = time.monotonic()
        if now - self._units_at > 2.0:
            try:
                self._units = int(self.ray.cluster_resources().get(self.resource, 0))
            except Exception:  # the cluster's state service did not answer: keep the last count
                pass
            self._units_at = now
        return max(1, self._units)

    def _loop(self):
        while True:
            self.wake.wait(0.2)
            self.wake.clear()
            with self.lock:
                if self.closed:
                    return
                now = time.monotonic()
                for job in [j for j in self.running if now > j.due]:
                    ref = self.running.pop(job)
                    self._cancel(ref)
                    self.cancelled[ref] = now + max(60.0, job.deadline_s)
                    self._again(job, "worker_timeout", f"no answer after {job.deadline_s:.0f} s")
                for ref in [r for r, t in self.cancelled.items() if now > t]:
                    del self.cancelled[ref]
                while self.queue and len(self.running) + len(self.cancelled) < self.units():
                    self._start(self.queue.popleft(), now)

    def _start(self, job, now):
        job.future.attempts += 1
        try:
            ref = job.remote.options(runtime_env=RUNTIME_ENV, **self.options).remote(*job.args)
        except Exception as e:  # e.g. arguments that cannot be sent: the job's failure, not the pool's
            job.future.set_exception(e)
            return
        job.due = now + job.deadline_s
        self.running[job] = ref
        ref.future().add_done_callback(lambda f: self._done(job, ref, f))

    def _again(self, job, cls, detail):
        """Under the lock: the attempt is lost; start the job again or give up (a machine failure)."""
        if job.future.attempts <= self.retries:
            self.queue.appendleft(job)
        else:
            job.future.set_result(job.lost(cls, f"{detail} ({job.future.attempts} attempts)"))

    def _done(self, job, ref, fut):
        exceptions = self.ray.exceptions
        with self.lock:
            if self.running.get(job) is not ref:
                self.cancelled.pop(ref, None)  # an attempt given up already: its unit is free now
                self.wake.set()
                return  # (deadline, shutdown): its answer does not count
            del self.running[job]
            try:
                result, error = fut.result(), None
            except exceptions.RayTaskError as e:  # the job's own code raised: its error, not the machine's
                result, error = None, e.cause if isinstance(getattr(e, "cause", None), BaseException) else e
            except (exceptions.RayError, concurrent.futures.CancelledError) as e:
                self._again(job, "worker_lost", " ".join(f"{type(e).__name__}: {e}".split())[:300])
                self.wake.set()
                return
        self.wake.set()
        if error is not None:
            job.future.set_exception(error)
            return
        try:  # outside the lock: finish may write files
            job.future.set_result(job.finish(result))
        except Exception as e:  # e.g. a full disk writing a compile's outputs: the caller's to handle
            job.future.set_exception(e)

    def _cancel(self, ref):
        try:
            self.ray.cancel(ref, force=True)  # kills the worker: a hung one frees its CPU or GPU
        except Exception:  # already finished or gone: nothing to cancel
            pass
