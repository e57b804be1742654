"""GPU time of each kernel a call launches, by the torch profiler: what diag_pad.py and
diag_tiny.py read (on the GPU machine; torch is not needed to import this module)."""


def kernel_times(fn, calls, warmup=1):
    """{kernel name: [GPU time in us of each launch]} over `calls` calls of fn, after `warmup`."""
    import torch
    from torch.profiler import profile, ProfilerActivity
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    times = {}
    for e in prof.events():
        if e.device_type.name == "CUDA":
            times.setdefault(e.name, []).append(getattr(e, "device_time", None) or e.cuda_time)
    return times


def median(values):
    return sorted(values)[len(values) // 2]
