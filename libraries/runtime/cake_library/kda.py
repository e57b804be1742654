"""kda_fwd: Kimi Delta Attention forward on torch tensors, through CAKE kernels (libraries/kda).

The interface is FlashKDA's `flash_kda.fwd` (K = V = 128, bf16 q/k/v/g/beta, fp32 A_log [H] and
dt_bias [H, 128], the gate, the q/k L2 norms and the beta sigmoid computed inside the kernel):

    out, final = kda_fwd(q, k, v, g, beta, scale, A_log, dt_bias, lower_bound,
                         initial_state=None, output_final_state=False, cu_seqlens=None)

q, k, v, g: [B, T, H, 128]; beta [B, T, H]. With cu_seqlens (int64 [N + 1], increasing, from 0
to T) B must be 1 and the sequences are packed along T; without, each batch row is a sequence.
States are fp32 [N, H, V, K] (FlashKDA's layout); a bf16 initial state is read as fp32.
Runs on the current stream; errors name the argument and launch nothing.
"""
import contextlib
import json
import operator
import os

from . import driver as drv
from . import expr

KV = 128
CARRIED = ("ws_hs",)   # the state pass 2 leaves to its next launch in a segmented call


def check_definition(definition):
    """Raises ValueError naming the first thing a KDA library definition (library.json) lacks."""
    if not isinstance(definition, dict) or definition.get("op") != "kda_fwd":
        op = definition.get("op") if isinstance(definition, dict) else None
        raise ValueError(f"not a KDA library: op {op!r}")
    variants = definition.get("variants")
    if not isinstance(variants, list) or not variants or \
            not all(isinstance(v, dict) and isinstance(v.get("name"), str) for v in variants):
        raise ValueError("the library lists no variants (each {\"name\", ...})")
    for v in variants:
        kernels = v.get("kernels")
        if not isinstance(kernels, list) or not kernels or not all(
                isinstance(k, dict) and isinstance(k.get("name"), str) and isinstance(k.get("manifest"), dict)
                for k in kernels):
            raise ValueError(f"variant {v['name']}: no \"kernels\" list of {{\"name\", \"manifest\"}} "
                             "(a library built before multi-kernel variants: rebuild it)")
    names = {v["name"] for v in variants}
    fast = definition.get("chunked")
    for table in [definition] + ([fast] if isinstance(fast, dict) else []):
        rule = table.get("rule", [])
        if not isinstance(rule, list) or not all(
                isinstance(r, list) and len(r) == 2 and isinstance(r[0], int) and not isinstance(r[0], bool)
                for r in rule):
            raise ValueError("\"rule\" is not a list of [most (sequence, head) pairs, variant]")
        for what in [n for _, n in rule] + [table.get("default")]:
            if what not in names:
                raise ValueError(f"the rule names {what!r}, which is not a variant of the library")
    if isinstance(fast, str) and fast not in names:
        raise ValueError(f"the rule names {fast!r}, which is not a variant of the library")
    short = definition.get("short_tokens")
    if short is not None and (isinstance(short, bool) or not isinstance(short, int) or short < 0):
        raise ValueError(f"\"short_tokens\" must be a token count (an integer >= 0), got {short!r}")
    seg = definition.get("segments")
    if seg is not None and not (isinstance(seg, dict) and all(
            isinstance(seg.get(k), int) and not isinstance(seg.get(k), bool) and seg[k] >= 1
            for k in ("work", "most"))):
        raise ValueError(f"\"segments\" must be {{\"work\": slot-heads per launch, \"most\": launches}} "
                         f"(positive integers), got {seg!r}")


def route(definition, T, H, N, lower_bound=-5.0):
    """The variant for a case (CPU only): the definition's "chunked" table (a name, or its own
    "rule" and "default") where its pick serves the gates (lower_bound >= -its max_neg_bound)
    and the call has more than "short_tokens" tokens, else the definition's "rule" ([[most
    (sequence, head) pairs, name], ...], the first entry whose bound holds), else its
    "default". (A few tokens make a short recurrence: one launch of the token-serial family
    beats the chunked family's two.)"""
    fast = definition.get("chunked")
    if fast and T > definition.get("short_tokens", 0):
        name = fast if isinstance(fast, str) else _pick(fast, H * N)
        if serves(next(v for v in definition["variants"] if v["name"] == name), lower_bound):
            return name
    return _pick(definition, H * N)


def _pick(table, pairs):
    for bound, name in table.get("rule", []):
        if pairs <= bound:
            return name
    return table["default"]


def serves(variant, lower_bound):
    """Whether a variant serves gates down to lower_bound (a chunked form divides by the chunk's
    cumulative decay, which overflows below its bound)."""
    bound = variant.get("max_neg_bound")
    return bound is None or lower_bound >= -bound


class KDALibrary:
    def __init__(self, folder):
        with open(os.path.join(folder, "library.json")) as f:
            self.definition = json.load(f)
        check_definition(self.definition)   # cake_library._load names the folder
        self.folder = folder
        self.variants = {v["name"]: v for v in self.definition["variants"]}
        self._driver = None
        self._kernels = {}
        self._spaces = {}

    def route(self, T, H, N, lower_bound=-5.0):
        """The variant for T tokens, H heads, N sequences and the gates' lower bound; ValueError
        naming a bad argument."""
        sizes = []
        for name, v in (("T", T), ("H", H), ("N", N)):
            try:   # ints and integer-like scalars (numpy's), not bools or floats
                size = None if isinstance(v, bool) else operator.index(v)
            except TypeError:
                size = None
            if size is None or size < 1:
                raise ValueError(f"{name} = {v!r}: sizes must be integers >= 1")
            sizes.append(size)
        return route(self.definition, *sizes, _number(lower_bound, "lower_bound"))

    def serves(self, name, lower_bound):
        return serves(self.variants[name], lower_bound)

    def stages(self, name):
        """The variant's kernels in launch order: [{"name", "manifest"}] (one for a single-pass
        family; the `wy` family's prep pass and state pass)."""
        return self.variants[name]["kernels"]

    def kernel(self, stage):
        name = stage["name"]
        if name not in self._kernels:
            if self._driver is None:
                self._driver = drv.Driver()
            with open(os.path.join(self.folder, "kernels", name + ".cubin"), "rb") as f:
                self._kernels[name] = drv.Kernel(self._driver, f.read(), stage["manifest"])
        return self._kernels[name]

    def workspace(self, torch, dev, stage, sizes_key, sizes, skip=()):
        """{`ws_` parameter: device address} of a stage: scratch tensors (one pass writes them,
        the next reads them) by their manifest shapes, kept for the next call of the same sizes;
        the parameters in `skip` (unused by this call) get no memory."""
        key = ("ws", dev, stage["name"], sizes_key, tuple(skip))
        ws = self._spaces.get(key)
        if ws is None:
            ws = {}
            for p in stage["manifest"]["params"]:
                if p["name"].startswith("ws_") and p["name"] not in skip:
                    shape = tuple(int(expr.evaluate(x, sizes)) for x in p["shape"])
                    t = self._spaces.get(("ws", dev, p["name"], shape))
                    if t is None:
                        dtype = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}[p["dtype"]]
                        t = self._spaces[("ws", dev, p["name"], shape)] = torch.empty(shape, dtype=dtype, device=dev)
                    ws[p["name"]] = t.data_ptr()
            self._spaces[key] = ws
        return ws

    def segments(self, name, slots, H):
        """How many launches of each pass a call of a two-pass variant splits its chunk slots
        into: the definition's "segments" ({"work": slot-heads per launch, "most": cap}); 1
        without (or for a single-pass variant)."""
        rule = self.definition.get("segments")
        if len(self.stages(name)) < 2 or not isinstance(rule, dict):
            return 1
        return max(1, min(int(rule.get("most", 1)), -(-slots * H // int(rule["work"]))))

    def _streams(self, torch, dev, count):
        """A side stream of the device and `count` + 1 events (kept: calls reuse them). The side
        stream has the highest priority, so that pass 2's few long blocks are placed before pass
        1's of the next range; measured, neither priority made segments pay (pass-1 blocks slow
        pass 2's chain: bench/results/2026-12-03-kda-prep, calls 2 and 3)."""
        key = ("streams", dev)
        side, events = self._spaces.get(key, (None, []))
        if side is None:
            side = torch.cuda.Stream(device=dev, priority=-1000)    # clamped to the highest
        while len(events) < count + 1:
            events.append(torch.cuda.Event())
        self._spaces[key] = (side, events)
        return side, events

    def fwd(self, q, k, v, g, beta, scale, A_log, dt_bias, lower_bound, initial_state=None,
            output_final_state=False, cu_seqlens=None, out=None, kernel=None, validate=True,
            segments=None):
        """validate=False skips reading cu_seqlens back to the host to check it (a device-to-host
        copy per call): the kernels clamp every sequence to 0 <= bos <= eos <= T, so offsets that
        break the contract give wrong outputs, never an access outside the tensors.
        segments: how many consecutive ranges of chunk slots a two-pass variant's passes run over
        (default: the library's rule, `segments()`); with more than one, pass 2 of a range runs
        on a side stream beside pass 1 of the next (the call still completes on the current
        stream), the state carried between ranges in a workspace.
        The two-pass variants' workspace is kept per library object, device and size: calls that
        may run at once on different streams need one KDALibrary each."""
        import torch
        B, T, H, N, cu = _check(torch, q, k, v, g, beta, A_log, dt_bias, initial_state, cu_seqlens, out,
                                validate)
        scale, lower_bound = _number(scale, "scale"), _number(lower_bound, "lower_bound")
        name = kernel or route(self.definition, B * T, H, N, lower_bound)   # checked above
        if name not in self.variants:
            raise ValueError(f"kernel: no variant named {name!r}")
        if not self.serves(name, lower_bound):
            raise ValueError(f"kernel: {name} does not serve lower_bound = {lower_bound} (it needs >= "
                             f"-{self.variants[name]['max_neg_bound']})")
        dev = q.device
        if cu is None:       # each batch row is a sequence: their bounds, kept per (B, T)
            cu = self._spaces.get(("cu", dev, B, T))
            if cu is None:
                cu = torch.arange(0, B * T + 1, T, dtype=torch.int64, device=dev)
                self._spaces[("cu", dev, B, T)] = cu
        o = out if out is not None else torch.empty_like(v)
        h0 = None
        if initial_state is not None:
            h0 = initial_state if initial_state.dtype == torch.float32 else initial_state.float()
        ht = torch.empty(N, H, KV, KV, dtype=torch.float32, device=dev) if output_final_state else None
        # An absent state is never touched (the flags say so): any valid address stands in.
        ptrs = {"q": q.data_ptr(), "k": k.data_ptr(), "v": v.data_ptr(), "g": g.data_ptr(),
                "beta": beta.data_ptr(), "A_log": A_log.data_ptr(), "dt_bias": dt_bias.data_ptr(),
                "cu_seqlens": cu.data_ptr(), "out": o.data_ptr(),
                "initial_state": (h0 if h0 is not None else o).data_ptr(),
                "final_state": (ht if ht is not None else o).data_ptr()}
        scalars = {"scale": scale, "lower_bound": lower_bound,
                   "use_initial_state": int(h0 is not None), "store_final_state": int(ht is not None)}
        sizes = {"T": B * T, "H": H, "N": N, "S": N + 1}
        chunk = self.variants[name].get("chunk")
        if chunk:   # chunk slots: the workspace's rows (wy.py); P: the slots of one launch
            sizes["C"] = B * T // chunk + N + 2
        sizes_key = tuple(sizes.values())
        slots = sizes.get("C", 0)
        if segments is None:
            segments = self.segments(name, slots, H)
        elif isinstance(segments, bool) or not isinstance(segments, int) or segments < 1:
            raise ValueError(f"segments: expected a positive integer, got {segments!r}")
        stages = self.stages(name)
        parts = min(segments, slots) if len(stages) > 1 else 1
        # One launch never touches the carried state (wy_state.py): it gets no memory, and any
        # valid address stands in for it.
        skip = CARRIED if parts == 1 else ()
        # Entering the device's context costs ~10 us, about what a small call's kernels take:
        # only when q is not on the current device.
        here = dev.index is None or dev.index == torch.cuda.current_device()
        with contextlib.nullcontext() if here else torch.cuda.device(dev):
            stream = _current_stream(torch, dev)
            for stage in stages:
                ptrs.update(self.workspace(torch, dev, stage, sizes_key, sizes, skip))
            ptrs.update({p: o.data_ptr() for p in skip})
            if parts == 1:
                sizes["P"] = slots
                scalars.update(slot_lo=0, slot_hi=slots)
                for stage in stages:
                    self.kernel(stage).launch(ptrs, sizes, stream, scalars)
                return o, ht
            main = torch.cuda.current_stream()
            prep, state = (self.kernel(st) for st in stages)
            side, events = self._streams(torch, dev, parts)
            events[parts].record(main)         # the side stream starts after what came before
            side.wait_event(events[parts])
            for i in range(parts):
                lo, hi = slots * i // parts, slots * (i + 1) // parts
                sizes["P"] = hi - lo
                scalars.update(slot_lo=lo, slot_hi=hi)
                prep.launch(ptrs, sizes, main.cuda_stream, scalars)
                events[i].record(main)
                side.wait_event(events[i])
                state.launch(ptrs, sizes, side.cuda_stream, scalars)
            events[parts].record(side)         # and the call ends on the current stream
            main.wait_event(events[parts])
        return o, ht


def _current_stream(torch, dev):
    """The raw handle of the device's current stream: torch's own fast query where it has one
    (what its generated code calls), else through a Stream object (several us more)."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return raw(torch.cuda.current_device() if dev.index is None else dev.index)
    return torch.cuda.current_stream(dev).cuda_stream


def _number(x, name):
    try:
        f = float(x)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected a number, got {type(x).__name__}") from None
    if f != f or f in (float("inf"), float("-inf")):
        raise ValueError(f"{name}: {f} is not finite")
    return f


def _check(torch, q, k, v, g, beta, A_log, dt_bias, initial_state, cu_seqlens, out, validate=True):
    """(B, T, H, N, cu_seqlens or None) of valid arguments, or an error naming the bad one
    (cu_seqlens' values only when `validate`)."""
    def tensor(t, name):
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{name}: expected a torch tensor, got {type(t).__name__}")
        if not t.is_cuda:
            raise ValueError(f"{name}: on {t.device}; a CUDA tensor is needed")
        if t.device != q.device:
            raise ValueError(f"{name}: on {t.device}, q is on {q.device}")
        if not t.is_contiguous():
            raise ValueError(f"{name}: not contiguous")

    def need(t, name, shape, dtypes):
        tensor(t, name)
        if t.dtype not in dtypes:
            raise TypeError(f"{name}: dtype {t.dtype}, expected " + " or ".join(map(str, dtypes)))
        if tuple(t.shape) != tuple(shape):
            raise ValueError(f"{name}: shape {list(t.shape)}, expected {list(shape)}")

    dev = q.device if isinstance(q, torch.Tensor) else None

    def usual(t, shape, dtype):
        """The common case in one expression; anything else goes through need(), which names
        what is wrong (or accepts another allowed dtype)."""
        return isinstance(t, torch.Tensor) and t.dtype == dtype and t.shape == shape and \
            t.device == dev and t.is_contiguous()

    tensor(q, "q")
    if q.dim() != 4:
        raise ValueError(f"q: expected [B, T, H, 128], got shape {list(q.shape)}")
    B, T, H, K = q.shape
    if K != KV:
        raise ValueError(f"q: head dimension {K}; these kernels need K = V = {KV}")
    if B * T == 0 or H == 0:
        raise ValueError(f"q: shape {list(q.shape)} has no tokens or no heads")
    bf16, f32 = torch.bfloat16, torch.float32
    if not usual(q, (B, T, H, KV), bf16):
        need(q, "q", (B, T, H, KV), (bf16,))
    for t, name, shape, dtype in ((k, "k", (B, T, H, KV), bf16), (v, "v", (B, T, H, KV), bf16),
                                  (g, "g", (B, T, H, KV), bf16), (beta, "beta", (B, T, H), bf16),
                                  (A_log, "A_log", (H,), f32), (dt_bias, "dt_bias", (H, KV), f32)):
        if not usual(t, shape, dtype):
            need(t, name, shape, (dtype,))
    if out is not None and not usual(out, (B, T, H, KV), bf16):
        need(out, "out", (B, T, H, KV), (bf16,))
    cu = None
    if cu_seqlens is not None:
        tensor(cu_seqlens, "cu_seqlens")
        if cu_seqlens.dtype not in (torch.int64, torch.int32) or cu_seqlens.dim() != 1 or \
                cu_seqlens.numel() < 2:
            raise ValueError("cu_seqlens: expected a 1-D int64 tensor of N + 1 >= 2 offsets")
        if B != 1:
            raise ValueError(f"cu_seqlens: given with B = {B}; packed sequences need B = 1")
        if validate:
            host = cu_seqlens.tolist()
            if host[0] != 0 or host[-1] != T or any(b < a for a, b in zip(host, host[1:])):
                raise ValueError(f"cu_seqlens: expected non-decreasing offsets from 0 to T = {T}, got "
                                 f"{host[:4]}{'...' if len(host) > 4 else ''} ending {host[-1]}")
        cu = cu_seqlens if cu_seqlens.dtype == torch.int64 else cu_seqlens.long()
        N = cu_seqlens.numel() - 1
    else:
        N = B
    if initial_state is not None and not usual(initial_state, (N, H, KV, KV), f32):
        need(initial_state, "initial_state", (N, H, KV, KV), (torch.float32, torch.bfloat16))
    return B, T, H, N, cu
