#!/usr/bin/env python3
"""Seeds schedule bugs into valid CAKE kernels and checks that `cake-verify` catches each one.

Each mutation family edits one site of a valid base kernel (examples/*.mlir and
test/Verify/Inputs/*.mlir) and names the rule id that must report it: drop a wait, an acquire, a
commit, a release, a fence or an init; wrong tx bytes, arrival counts or consumer counts; a
constant stage index; too small stage buffers; too many registers; misaligned wgmma roles;
barriers inside roles or divergent code; ops the target lacks; shared memory overflow; removed barriers and waits that race;
misaligned or overrunning cp.async copies; deadlocks (releases a ring late, a wait before the
thread's own arrival, named barriers in branches); ...

    bench/verify_mutants.py                       # report: catch rate and false positives
    bench/verify_mutants.py --json out.json       # also the per-mutant records
    bench/verify_mutants.py --emit-corpus DIR     # write each caught mutant as a lit test

A mutant is caught when `cake-opt --cake-verify --cake-diagnostics=json` reports the expected
rule (an error, or for tma.coord-stride a warning). A false positive is any finding on a valid base. Python 3 standard library only.
"""
import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def strip_comments(text):
    """Drops comment lines (the examples' RUN and CHECK lines among them)."""
    return "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//")) + "\n"


def target_of(text):
    m = re.search(r'target = "(\w+)"', text)
    return m.group(1) if m else ""


def sub_at(text, m, new):
    return text[: m.start()] + new + text[m.end():]


def line_sites(text, pattern):
    return list(re.finditer(pattern, text, flags=re.M))


# --- Mutation families: each yields (name, mutated text, expected rule). ---


def fam_tx_bytes(base, text):
    for i, m in enumerate(line_sites(text, r"tx_bytes (\d+)")):
        n = int(m.group(1))
        for new in sorted({n // 2, n + 16, n * 2, n - 1024}):
            if 1 <= new < (1 << 20) and new != n:
                yield f"tx-bytes-{i}-{new}", sub_at(text, m, f"tx_bytes {new}"), "pipeline.tx-bytes"


def fam_expect_bytes(base, text):
    for i, m in enumerate(line_sites(text, r"(arrive_expect_tx [^,]+), bytes (\d+)")):
        n = int(m.group(2))
        for new in sorted({n // 2, n + 4096, 0}):
            if new != n:
                yield (f"expect-bytes-{i}-{new}", sub_at(text, m, f"{m.group(1)}, bytes {new}"),
                       "mbarrier.tx-bytes")


DROPS = [
    (r"^\s*cake\.pipeline\.consumer_wait .*\n", "drop-consumer-wait", "pipeline.read-before-wait"),
    (r"^\s*cake\.pipeline\.consumer_release .*\n", "drop-consumer-release",
     "pipeline.missing-release"),
    (r"^\s*cake\.pipeline\.producer_acquire .*\n", "drop-producer-acquire",
     "pipeline.acquire-missing"),
    (r"^\s*cake\.pipeline\.producer_commit .*\n", "drop-producer-commit",
     "pipeline.commit-missing"),
    (r"^\s*cake\.fence\.mbarrier_init\s*\n", "drop-fence-mbarrier-init", "mbarrier.init-fence"),
    (r"^\s*cake\.mbarrier\.init .*\n", "drop-mbarrier-init", "mbarrier.uninitialized"),
    (r"^\s*cake\.mbarrier\.arrive_expect_tx .*\n", "drop-arrive-expect-tx",
     "mbarrier.tx-missing"),
    (r"^\s*cake\.wgmma\.commit\s*\n", "drop-wgmma-commit", "pipeline.release-in-flight"),
]


def fam_drops(base, text):
    for pattern, name, rule in DROPS:
        for i, m in enumerate(line_sites(text, pattern)):
            mutated = sub_at(text, m, "")
            if name == "drop-consumer-release":
                # Another release of the same pipeline left: then nothing is missing.
                pipe = re.search(r"consumer_release (%\w+)", m.group(0)).group(1)
                if f"consumer_release {pipe}[" in mutated:
                    continue
            if name == "drop-wgmma-commit" and "consumer_release" not in text:
                continue
            if name == "drop-fence-mbarrier-init" and "cake.pipeline.create" in text[m.end():]:
                # Not a bug: pipeline.create fences (in thread 0) every init before it.
                continue
            yield f"{name}-{i}", mutated, rule


def fam_counts(base, text):
    for i, m in enumerate(line_sites(text, r"consumers (\d+)")):
        n = int(m.group(1))
        for new in sorted({n * 2, n + 1, max(1, n // 2)}):
            if new != n:
                yield f"consumers-{i}-{new}", sub_at(text, m, f"consumers {new}"), \
                    "pipeline.consumer-count"
    for i, m in enumerate(line_sites(text, r"(mbarrier\.init [^,]+), count (\d+)")):
        n = int(m.group(2))
        for new in sorted({n + 1, n * 4, 32}):
            if new != n:
                yield (f"init-count-{i}-{new}", sub_at(text, m, f"{m.group(1)}, count {new}"),
                       "mbarrier.arrival-count")


def fam_regs(base, text):
    for i, m in enumerate(line_sites(text, r"regs (\d+)")):
        n = int(m.group(1))
        for new in sorted({256, n + 16}):
            if new != n and new <= 256:
                yield f"regs-{i}-{new}", sub_at(text, m, f"regs {new}"), "roles.register-file"


def fam_stage_buffers(base, text):
    stages = {int(s) for s in re.findall(r"!cake\.pipeline<(\d+)>", text)}
    loaded = set(re.findall(r"cake\.tma\.load [^\n]*\n\s*: [^,]+, (!cake\.smem<[^>]*>), !cake\.pipeline",
                            text))
    for i, ty in enumerate(sorted(loaded)):
        lead = int(re.match(r"!cake\.smem<(\d+)x", ty).group(1))
        if lead in stages and lead > 1:
            smaller = ty.replace(f"<{lead}x", f"<{lead - 1}x", 1)
            yield f"stage-buffer-{i}", text.replace(ty, smaller), "pipeline.stage-count"


def fam_slots(base, text):
    slots = set(re.findall(r"(%\w+) = cake\.pipeline\.slot ", text))
    for i, m in enumerate(line_sites(text, r"(%\w+)\[(%\w+)\b")):
        if m.group(2) not in slots:
            continue
        yield f"constant-stage-{i}", sub_at(text, m, f"{m.group(1)}[%c1"), "pipeline.slot-mismatch"


def fam_smem(base, text):
    m = re.search(r"^(\s*)(%\w+ = cake\.alloc_smem .*\n)", text, flags=re.M)
    if m:
        extra = f"{m.group(1)}%spill = cake.alloc_smem : !cake.smem<60000xf32>\n"
        yield "smem-spill-buffer", text[: m.end()] + extra + text[m.end():], "smem.over-limit"
    for ty in sorted(set(re.findall(r"!cake\.smem<(\d+)x[^>]*>", text))):
        pass
    # One more stage everywhere (buffers and pipelines).
    for s in sorted({int(s) for s in re.findall(r"!cake\.pipeline<(\d+)>", text)}):
        bigger = re.sub(rf"!cake\.smem<{s}x", f"!cake.smem<{s * 2}x", text)
        bigger = bigger.replace(f"!cake.pipeline<{s}>", f"!cake.pipeline<{s * 2}>")
        yield f"smem-double-stages-{s}", bigger, "smem.over-limit"


def fam_roles(base, text):
    for i, m in enumerate(line_sites(text, r'^(\s*)cake\.role "[^"]*" warps \[\d+, \d+\)( regs \d+)? \{\n')):
        indent = m.group(1) + "  "
        yield (f"barrier-in-role-{i}", text[: m.end()] + f"{indent}cake.barrier\n" + text[m.end():],
               "roles.barrier-in-role")
    for i, m in enumerate(line_sites(text, r'cake\.role "([^"]*)" warps \[(\d+), (\d+)\)( regs \d+)?')):
        first, last = int(m.group(2)), int(m.group(3))
        body = text[m.end():]
        # Only roles that issue wgmma: shift their range off the warpgroup boundary.
        nxt = body.find("cake.role ")
        if "cake.wgmma" not in (body if nxt < 0 else body[:nxt]):
            continue
        for lo, hi in [(first, last - 2), (first + 2, last)]:
            if hi > lo:
                yield (f"wgmma-role-misaligned-{i}-{lo}-{hi}",
                       sub_at(text, m, f'cake.role "{m.group(1)}" warps [{lo}, {hi})'),
                       "roles.wgmma-warpgroup")
    roles_at = text.find("cake.warp_roles")
    for i, m in enumerate(line_sites(text, r"^(\s*)scf\.if %\w+ \{\n")):
        if roles_at >= 0 and m.start() > roles_at:
            continue
        yield (f"divergent-barrier-{i}", text[: m.end()] + f"{m.group(1)}  cake.barrier\n" +
               text[m.end():], "roles.divergent-barrier")


def fam_producers(base, text):
    m = re.search(r"scf\.if %leader \{", text)
    if m and "producer_commit" in text:
        # With an mbarrier expect-tx in the same elected region, the mbarrier pass (which runs
        # first) reports the extra arrivals.
        rule = "mbarrier.arrival-count" if "arrive_expect_tx" in text else "pipeline.commit-threads"
        yield "no-elect", sub_at(text, m, "scf.if %first {"), rule
    m = re.search(r"%first = arith\.cmpi eq, %warp, %c0 : index", text)
    if m and "producer_commit" in text:
        rule = "mbarrier.arrival-count" if "arrive_expect_tx" in text else "pipeline.commit-threads"
        yield ("all-producer-warps", sub_at(text, m, "%first = arith.cmpi ult, %warp, %c16 : index"),
               rule)
    m = re.search(r"%warp = cake\.warp_id\n(\s*%first = arith\.cmpi eq, %warp)", text)
    if m:
        yield ("elect-in-one-lane", sub_at(text, m, "%warp = cake.lane_id\n" + m.group(1)),
               "roles.partial-warp")
    m = re.search(r"%arrives = arith\.cmpi eq, %lane128, %c0 : index", text)
    if m:
        yield ("release-by-warp", sub_at(text, m, "%arrives = arith.cmpi ult, %lane128, %c32 : index"),
               "pipeline.consumer-count")
    m = re.search(r"%is_first = arith\.cmpi eq, %tid, %c0 : index", text)
    if m and "mbarrier.init" in text:
        yield ("init-by-many", sub_at(text, m, "%is_first = arith.cmpi ult, %tid, %c64 : index"),
               "mbarrier.init-threads")


def fam_sync_moves(base, text):
    # Wait counts that leave the released stage's wgmma in flight. (With A from registers the
    # release trails by one iteration; the same mutation is fam_wgmma_tma's.)
    for i, m in enumerate(line_sites(text, r"cake\.wgmma\.wait (\d)\n(?=(?:(?!scf\.yield)[\s\S])*?consumer_release)")):
        if "cake.wgmma.regs" in text:
            break
        n = int(m.group(1))
        yield f"wgmma-wait-{i}-{n + 1}", sub_at(text, m, f"cake.wgmma.wait {n + 1}\n"), \
            "pipeline.release-in-flight"
    # A release moved up, right after the wait of its iteration.
    for i, m in enumerate(line_sites(text, r"^(\s*)cake\.pipeline\.consumer_release (%\w+)\[(%\w+)\] (: [^\n]*)\n")):
        pipe, it = m.group(2), m.group(3)
        wait = re.search(rf"cake\.pipeline\.consumer_wait {re.escape(pipe)}\[{re.escape(it)}\][^\n]*\n",
                         text)
        if not wait or wait.start() > m.start():
            continue
        moved = sub_at(text, m, "")
        indent = re.match(r"\s*", text[text.rfind("\n", 0, wait.start()) + 1:]).group(0)
        line = f"{indent}cake.pipeline.consumer_release {pipe}[{it}] {m.group(4)}\n"
        pos = wait.end()
        # After the slot op that follows the wait, so that the read below uses it.
        slot = re.match(r"\s*%\w+ = cake\.pipeline\.slot [^\n]*\n", moved[pos:])
        if slot:
            pos += slot.end()
        yield f"release-early-{i}", moved[:pos] + line + moved[pos:], "pipeline.release-before-use"
    # mbarrier: the wait moved into the loop (constant parity), a wrong index, late init.
    m = re.search(r"^(\s*)cake\.mbarrier\.wait (%\w+)\[%c0\], %c0 : (!cake\.mbarriers<1>)\n", text, re.M)
    if m:
        loop_wait = re.search(r"cake\.pipeline\.consumer_wait [^\n]*\n", text[m.end():])
        if loop_wait:
            moved = sub_at(text, m, "")
            pos = m.start() + loop_wait.end()
            yield ("mbarrier-wait-in-loop",
                   moved[:pos] + f"        cake.mbarrier.wait {m.group(2)}[%c0], %c0 : {m.group(3)}\n" +
                   moved[pos:], "mbarrier.parity-constant")
        yield ("mbarrier-wait-out-of-range",
               sub_at(text, m, f"{m.group(1)}cake.mbarrier.wait {m.group(2)}[%c1], %c0 : {m.group(3)}\n"),
               "mbarrier.index-range")
        two = sub_at(text, m, f"{m.group(1)}cake.mbarrier.wait {m.group(2)}[%c1], %c0 : {m.group(3)}\n")
        yield "mbarrier-wait-other-barrier", two.replace("!cake.mbarriers<1>", "!cake.mbarriers<2>"), \
            "mbarrier.no-arrive"
    m = re.search(r"(\s*scf\.if %is_first \{\n\s*cake\.mbarrier\.init [^\n]*\n\s*cake\.fence\.mbarrier_init\n\s*\}\n)"
                  r"((?:\s*//[^\n]*\n)*\s*%\w+ = cake\.pipeline\.create [^\n]*\n)", text)
    if m:
        yield ("mbarrier-init-after-barrier", sub_at(text, m, m.group(2) + m.group(1)),
               "mbarrier.init-barrier")


def fam_wgmma_tma(base, text):
    # wgmma with A from registers: a wait in the k loop that keeps a group in flight while the
    # next iteration rewrites the A fragment.
    if "cake.wgmma.regs" in text:
        for i, m in enumerate(line_sites(text, r"cake\.wgmma\.wait 0\n(?=(?:(?!scf\.yield)[\s\S])*?scf\.yield)")):
            yield f"wgmma-regs-wait-{i}", sub_at(text, m, "cake.wgmma.wait 1\n"), \
                "wgmma.a-registers-in-flight"
    # A k loop whose TMA coordinate advances by half the box (warning tma.coord-stride).
    if re.search(r"%c32 = arith\.constant 32 : index", text):
        for i, m in enumerate(line_sites(text, r"(%k0 = arith\.muli %kt, )%c64( : index)")):
            yield f"tma-stride-{i}", sub_at(text, m, m.group(1) + "%c32" + m.group(2)), "tma.coord-stride"
    # TMA multicast: a mask naming a rank outside a cluster of 2.
    if re.search(r"cluster = array<i64: 2>", text) and re.search(r"%c4 = arith\.constant 4 : index", text):
        for i, m in enumerate(line_sites(text, r"multicast %\w+")):
            yield f"tma-mask-{i}", sub_at(text, m, "multicast %c4"), "tma.multicast-mask"


TARGET_OPS = [
    ("cake.fence.proxy_async", "target.fence-proxy-async"),
    ("cake.wgmma.fence", "target.wgmma"),
    ("cake.wgmma.commit", "target.wgmma"),
    ("cake.wgmma.wait 0", "target.wgmma"),
    ("%cid = cake.cluster_id x", "target.cluster"),
    ("%cbid = cake.cluster_block_id x", "target.cluster"),
    ("cake.fence.mbarrier_init", "target.fence-mbarrier-init"),
]


def fam_target(base, text):
    target = target_of(text)
    m = re.search(r"^(\s*)(%\w+ = cake\.thread_id x\n)", text, flags=re.M)
    if not m:
        m = re.search(r"^(\s*)(%\w+ = arith\.constant 0 : index\n)", text, flags=re.M)
    if not m:
        return
    for i, (op, rule) in enumerate(TARGET_OPS):
        needs_a = rule == "target.wgmma"
        if target == "sm_90a" or (target in ("sm_90", "sm_100a") and not needs_a):
            continue
        yield f"target-{i}", text[: m.end()] + m.group(1) + op + "\n" + text[m.end():], rule
    if target == "sm_90a" and "cake.wgmma" not in text and "regs " not in text and "cluster" not in text:
        # The same kernel on sm_80: fences and waits it uses need Hopper.
        for op, rule in TARGET_OPS[:1]:
            mutated = text.replace('target = "sm_90a"', 'target = "sm_80"', 1)
            yield "target-sm80-" + rule, mutated[: m.end()] + m.group(1) + op + "\n" + mutated[m.end():], rule


def fam_races(base, text):
    # A block barrier removed (the first or second __syncthreads of a tiled loop, the barrier that
    # publishes cp.async copies): other warps read shared memory before it is written, or
    # overwrite it while it is read. Barriers that publish mbarrier inits are another family's.
    for i, m in enumerate(line_sites(text, r"^\s*cake\.barrier\n")):
        if "fence.mbarrier_init" in text[max(0, m.start() - 200):m.start()]:
            continue
        yield f"drop-barrier-{i}", sub_at(text, m, ""), "race.missing-barrier"
    # In a role, the wait for the mbarrier a TMA copy into a plain (non-pipeline) buffer completes
    # on: the role reads what the other role's copy is still writing.
    mbarriers = set(re.findall(r"(%\w+) = cake\.mbarrier\.alloc", text))
    tma_bars = {b for b in re.findall(r"cake\.tma\.load [^\n]*(%\w+)\[[^\]\n]*\](?: multicast %\w+)?\n",
                                      text) if b in mbarriers}
    for i, m in enumerate(line_sites(text, r"^\s*cake\.mbarrier\.wait (%\w+)\[.*\n")):
        if m.group(1) in tma_bars and "cake.warp_roles" in text[:m.start()]:
            yield f"drop-tma-wait-{i}", sub_at(text, m, ""), "race.cross-role"


ELEMENT_BYTES = {"i8": 1, "f16": 2, "bf16": 2, "i32": 4, "f32": 4, "i64": 8, "f64": 8}


def fam_cp_async(base, text):
    # A cp.async whose shared destination is off by half a copy (misaligned), or by one whole copy
    # (aligned, but the last copy of each row runs past it).
    sites = line_sites(text, r"^(\s*)(cake\.cp_async [^\n]*, (%\w+)\[([^\]\n]*)\], bytes (\d+)[^\n]*"
                             r"!cake\.smem<[^>]*x(\w+)(?:, [^>]*)?>)\n")
    for i, m in enumerate(sites):
        indices = [s.strip() for s in m.group(4).split(",")]
        width = int(m.group(5)) // ELEMENT_BYTES.get(m.group(6), 4)
        if width < 2:
            continue
        indent, line = m.group(1), m.group(2)
        head = line[: m.start(4) - m.start(2)]
        tail = line[m.end(4) - m.start(2):]
        for name, shift, rule in [("cp-async-half-offset", width // 2, "async.cp-async-align"),
                                  ("cp-async-past-row", width, "async.cp-async-row-overrun")]:
            new = indices[:-1] + [f"%dl_col{i}"]
            seeded = (f"{indent}%dl_shift{i} = arith.constant {shift} : index\n"
                      f"{indent}%dl_col{i} = arith.addi {indices[-1]}, %dl_shift{i} : index\n"
                      f"{indent}{head}{', '.join(new)}{tail}\n")
            yield f"{name}-{i}", sub_at(text, m, seeded), rule


def fam_deadlock(base, text):
    # Wait-for cycles. A consumer that releases each stage a whole ring (`stages` iterations)
    # later than it does: the producer's acquire of iteration i waits for the consumer's iteration
    # i (or later), which waits for the producer's commit of i. Guarded, so that no stray release
    # of a negative iteration frees a slot early. Only releases of a loop counter (or the counter
    # minus a constant), the iterations the pass follows.
    ivs = set(re.findall(r"scf\.for (%\w+) = ", text))
    lagged = {m.group(1) for m in re.finditer(r"(%\w+) = arith\.subi (%\w+), %\w+ : index", text)
              if m.group(2) in ivs}
    for i, m in enumerate(line_sites(text, r"^(\s*)cake\.pipeline\.consumer_release (%\w+)\[(%\w+)\]"
                                           r" : !cake\.pipeline<(\d+)>\n")):
        indent, pipe, it, stages = m.group(1), m.group(2), m.group(3), m.group(4)
        if it not in ivs | lagged:
            continue
        seeded = (f"{indent}%dl_lag{i} = arith.constant {stages} : index\n"
                  f"{indent}%dl_ok{i} = arith.cmpi uge, {it}, %dl_lag{i} : index\n"
                  f"{indent}scf.if %dl_ok{i} {{\n"
                  f"{indent}  %dl_it{i} = arith.subi {it}, %dl_lag{i} : index\n"
                  f"{indent}  cake.pipeline.consumer_release {pipe}[%dl_it{i}] : !cake.pipeline<{stages}>\n"
                  f"{indent}}}\n")
        yield f"release-lag-{i}", sub_at(text, m, seeded), "deadlock.cyclic-wait"
    # The thread that announces a TMA copy's bytes first waits for the barrier it is about to
    # arrive on.
    if re.search(r"%c0 = arith\.constant 0 : index", text):
        for i, m in enumerate(line_sites(text, r"^(\s*)cake\.mbarrier\.arrive_expect_tx (%\w+)\[(%\w+)\],"
                                               r" bytes \d+ : (!cake\.mbarriers<\d+>)\n")):
            wait = f"{m.group(1)}cake.mbarrier.wait {m.group(2)}[{m.group(3)}], %c0 : {m.group(4)}\n"
            yield f"wait-before-arrive-{i}", text[: m.start()] + wait + text[m.start():], \
                "deadlock.cyclic-wait"


def fam_participation(base, text):
    # A named barrier meant for the whole role (or block) placed where only some of its threads
    # go: inside a thread-dependent branch, or for the whole block inside one role.
    block = re.search(r"block = array<i64: ([\d, ]+)>", text)
    if not block:
        return
    threads = 1
    for extent in block.group(1).split(","):
        threads *= int(extent)
    roles = []  # (start, end, threads, body start)
    for m in line_sites(text, r'^(\s*)cake\.role "[^"]*" warps \[(\d+), (\d+)\)( regs \d+)? \{\n'):
        close = re.compile(rf"^{m.group(1)}\}}\n", re.M).search(text, m.end())
        roles.append((m.start(), close.start() if close else len(text),
                      (int(m.group(3)) - int(m.group(2))) * 32, m.end(), m.group(1) + "  "))
    for i, m in enumerate(line_sites(text, r"^(\s*)scf\.if (%\w+) \{\n")):
        count = next((n for s, e, n, _, _ in roles if s < m.start() < e), threads)
        # Under a lane-dependent condition (elect, a lane, one thread) only part of a warp
        # arrives: bar.sync is .aligned, so that is roles.partial-warp (the hardware counts whole
        # warps; the barrier may still complete, as it does on the H200). Under a warp-dependent
        # one, whole warps stay away: deadlock.branch-participation.
        cond = re.search(rf"^\s*{re.escape(m.group(2))} = (.*)$", text, re.M)
        lane_level = cond and re.search(r"cake\.elect_one|%lane|cmpi eq, %tid", cond.group(1))
        yield (f"named-barrier-in-branch-{i}",
               text[: m.end()] + f"{m.group(1)}  cake.named_barrier 1, threads {count}\n" + text[m.end():],
               "roles.partial-warp" if lane_level else "deadlock.branch-participation")
    for i, (_, _, count, body, indent) in enumerate(roles):
        if count < threads:
            yield (f"named-barrier-in-role-{i}",
                   text[:body] + f"{indent}cake.named_barrier 1, threads {threads}\n" + text[body:],
                   "deadlock.branch-participation")


FAMILIES = [fam_tx_bytes, fam_expect_bytes, fam_drops, fam_counts, fam_regs, fam_stage_buffers,
            fam_slots, fam_smem, fam_roles, fam_producers, fam_sync_moves, fam_wgmma_tma,
            fam_target, fam_races, fam_cp_async, fam_deadlock, fam_participation]


def bases():
    out = []
    for path in sorted((ROOT / "examples").glob("*.mlir")) + sorted(
            (ROOT / "test" / "Verify" / "Inputs").glob("*.mlir")):
        if path.name.startswith("rule-"):  # rule files for --cake-load-rules, not kernels
            continue
        out.append((path, strip_comments(path.read_text())))
    return out


def run_verify(cake_opt, text, timeout):
    """Returns (status, findings): status ok|findings|parse-error|crash|timeout."""
    try:
        proc = subprocess.run([cake_opt, "-", "--cake-verify", "--cake-diagnostics=json", "-o",
                               os.devnull], input=text, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", []
    records = []
    for line in proc.stderr.splitlines():
        try:
            records.append(json.loads(line))
        except ValueError:
            pass
    if proc.returncode < 0 or proc.returncode > 1:
        return "crash", records
    if proc.returncode == 0:
        return "ok", records
    rules = [r["rule"] for r in records]
    if all(r is None for r in rules):
        return "parse-error", records
    return "findings", records


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cake-opt", default=str(ROOT / "build" / "bin" / "cake-opt"))
    ap.add_argument("--json", help="write per-mutant records here")
    ap.add_argument("--emit-corpus", help="write each caught mutant as a lit test into this folder")
    ap.add_argument("--per-rule", type=int, default=2,
                    help="--emit-corpus: at most this many mutants per base and rule")
    ap.add_argument("--timeout", type=float, default=30)
    args = ap.parse_args()

    valid = bases()
    results = []
    false_positives = []
    emitted = {}
    for path, text in valid:
        status, records = run_verify(args.cake_opt, text, args.timeout)
        if status != "ok":
            false_positives.append((path.name, status, [r["rule"] for r in records]))
    for path, text in valid:
        base = path.stem
        seen = set()
        for family in FAMILIES:
            for name, mutated, rule in family(base, text):
                if mutated == text or mutated in seen:
                    continue
                seen.add(mutated)
                status, records = run_verify(args.cake_opt, mutated, args.timeout)
                rules = [r["rule"] for r in records]
                caught = rule in rules
                results.append({"base": base, "mutant": name, "family": family.__name__[4:],
                                "expected": rule, "status": status, "caught": caught,
                                "rules": sorted({r for r in rules if r})})
                key = (base, rule)
                emitted[key] = emitted.get(key, 0)
                if caught and args.emit_corpus and emitted[key] < args.per_rule:
                    emitted[key] += 1
                    emit(Path(args.emit_corpus), base, name, mutated, rule, records)

    total = len(results)
    caught = sum(r["caught"] for r in results)
    print(f"bases: {len(valid)} ({', '.join(p.name for p, _ in valid)})")
    print(f"false positives on valid bases: {len(false_positives)}")
    for name, status, rules in false_positives:
        print(f"  {name}: {status} {rules}")
    print(f"mutants: {total}, caught with the expected rule: {caught} "
          f"({100.0 * caught / max(1, total):.1f}%)")
    by_status = {}
    for r in results:
        by_status[r["status"]] = by_status.get(r["status"], 0) + 1
    print("status: " + ", ".join(f"{k} {v}" for k, v in sorted(by_status.items())))
    by_rule = {}
    for r in results:
        c, t = by_rule.get(r["expected"], (0, 0))
        by_rule[r["expected"]] = (c + r["caught"], t + 1)
    print("per expected rule (caught/total):")
    for rule, (c, t) in sorted(by_rule.items()):
        print(f"  {rule:32} {c}/{t}")
    missed = [r for r in results if not r["caught"]]
    if missed:
        print("missed:")
        for r in missed:
            print(f"  {r['base']}:{r['mutant']} expected {r['expected']}, got {r['status']} {r['rules']}")
    if args.json:
        Path(args.json).write_text(json.dumps({"false_positives": false_positives,
                                               "mutants": results}, indent=1) + "\n")
    return 0 if caught == total and not false_positives else 1


def emit(folder, base, name, text, rule, records):
    folder.mkdir(parents=True, exist_ok=True)
    line = next(r["line"] for r in records if r["rule"] == rule)
    lines = text.splitlines()
    lines.insert(line - 1, f"// expected-error @+1 {{{{[{rule}]}}}}")
    header = [
        "// RUN: cake-opt %s --cake-verify -verify-diagnostics=only-expected -o /dev/null",
        f"// Generated by bench/verify_mutants.py --emit-corpus: mutant '{name}' of {base},",
        f"// caught as {rule}.",
    ]
    (folder / f"{base}--{name}.mlir").write_text("\n".join(header + lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
