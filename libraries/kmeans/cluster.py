"""build.py --ray: the library's compiles as jobs on a Ray cluster's CPUs (issue #19).

Each variant is one job (one CPU): the worker generates its IR, and unless it equals the IR the
library folder's current outputs were built from, verifies and compiles it in a temporary folder
and sends the cubin, manifest and ptxas log back; the driver writes them into --out/kernels. A job
whose worker or node is lost, or that does not answer by its deadline, runs again elsewhere
(cake_agent.ray_pool: 2 retries, then a failure naming the class); a compile's own error is the
variant's failure, as with --jobs. Every node needs the repository at the same path (the workers
import libraries/kmeans from it) and cake-opt / cake-translate at --tools. Ray is optional: without
it, --ray is refused with the package named (exit 2).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
AGENT = os.path.join(HERE, "..", "..", "agent")
DEADLINE_S = 900         # one variant: ~1 s of cake-opt, cake-translate and ptxas; 20 s the worst seen


def _job(kmeans_dir, tools, p, programmatic_launch, current):
    """On the worker: build.compile_elsewhere, importing libraries/kmeans from the same checkout."""
    if kmeans_dir not in sys.path:
        sys.path.insert(0, kmeans_dir)
    import build
    return build.compile_elsewhere(tools, p, programmatic_launch, current)


def _store(kdir, result):
    """On the driver: a job's outputs written to the library folder; (parameters, status, stderr)."""
    import build
    p, rc, err, text, files = result
    name = build.variant_name(p)
    if files is not None:       # compiled now (None: the folder's outputs are of the same IR)
        # The IR first: outputs older than their IR are not current (build.current_ir).
        with open(os.path.join(kdir, name + ".mlir"), "w") as f:
            f.write(text)
        for suffix, data in files.items():
            with open(os.path.join(kdir, name + suffix), "wb") as f:
                f.write(data)
    return p, rc, err


def compile_all(args, kdir, todo, deadline_s=DEADLINE_S):
    """[(parameters, exit status, stderr)] of `todo` compiled on the cluster at args.ray."""
    if AGENT not in sys.path:
        sys.path.insert(0, AGENT)
    import build
    from cake_agent import ray_pool
    from cake_agent.backends import BackendUnavailable
    try:
        import ray  # noqa: F401  (ray_pool's own message names the harness's flags, not build.py's)
    except ImportError as e:
        print(f"build.py: --ray needs the Python package 'ray', which is not installed ({e}); install it "
              "with 'python3 -m pip install ray', or compile here with --jobs N", file=sys.stderr)
        sys.exit(2)
    try:
        ray = ray_pool.connect(None if args.ray == "local" else args.ray)
    except BackendUnavailable as e:
        print(f"build.py: --ray: {e}", file=sys.stderr)
        sys.exit(2)
    # The workers cannot import this module by name (it is not on their path): send _job by value.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    remote = ray.remote(_job)
    pool = ray_pool.Pool(ray, "CPU")
    tools = os.path.abspath(args.tools)
    try:
        futures = [(p, pool.submit(remote, (HERE, tools, p, args.programmatic_launch,
                                            build.current_ir(tools, kdir, build.variant_name(p), args.keep_built)),
                                   deadline_s, finish=lambda r: _store(kdir, r)))
                   for p in todo]
        out = []
        for p, future in futures:
            r = future.result()
            if isinstance(r, ray_pool.Lost):
                out.append((p, 1, f"lost on the cluster ({r.cls}): {r.detail}"))
            else:
                out.append(r)
        return out
    finally:
        pool.shutdown()
