#!/usr/bin/env python3
"""Markdown tables of a kda_bench.py rows file: every timed case (CAKE as routed against FlashKDA
and fla where measured) and the geomeans by part (anchors, grid, grid held out).

    python3 bench/kda/rows_table.py ROWS.json
"""
import json
import math
import sys


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def case(r):
    if r.get("T"):
        return f"T{r['T']}"
    s = r["seq_lens"]
    return f"N{len(s)} T{sum(s)}" if len(s) > 3 else "varlen " + "+".join(map(str, s))


def ms(x):
    return "-" if x is None else f"{x:.3f}"


def err(x):
    return "-" if x is None else f"{x:.1e}"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: rows_table.py ROWS.json")
    try:
        with open(sys.argv[1]) as f:
            rows = json.load(f)
        rows = rows["rows"] if isinstance(rows, dict) else rows
        assert isinstance(rows, list) and all(isinstance(r, dict) and "set" in r for r in rows)
    except (OSError, ValueError, KeyError, AssertionError) as e:
        sys.exit(f"rows_table.py: {sys.argv[1]}: not a kda_bench.py rows file ({type(e).__name__}: {e})")
    print("| set | case | H | lower_bound | h0 | held out | kernel | CAKE ms | FlashKDA ms | fla ms | "
          "vs FlashKDA | err out / state | FlashKDA err |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if r.get("cake_ms") is None:
            continue
        o, ck, fk = r["options"], r["cake_ms"], r.get("flashkda_ms")
        print(f"| {r['set']} | {case(r)} | {r['H']} | {o.get('lower_bound', -5.0)} | "
              f"{'yes' if o.get('h0') else 'no'} | {'' if r['tuned'] else 'yes'} | {r['kernel']} | "
              f"{ms(ck)} | {ms(fk)} | {ms(r.get('fla_ms'))} | {'-' if fk is None else f'{fk / ck:.2f}'} | "
              f"{err(r['max_rel_err_out'])} / {err(r['max_rel_err_state'])} | {err(r.get('flashkda_err_out'))} |")
    print()
    parts = (("anchors", lambda r: r["set"] == "anchors"), ("grid", lambda r: r["set"] == "grid"),
             ("grid, tuned", lambda r: r["set"] == "grid" and r["tuned"]),
             ("grid, held out", lambda r: r["set"] == "grid" and not r["tuned"]))
    for name, keep in parts:
        sp = [r["flashkda_ms"] / r["cake_ms"] for r in rows
              if keep(r) and r.get("flashkda_ms") and r.get("cake_ms")]
        if sp:
            print(f"- {name}: {geomean(sp):.3f}x FlashKDA (geomean over {len(sp)} cases), "
                  f"{sum(x >= 1 for x in sp)} at >= 1.0x, min {min(sp):.2f}x")
    print(f"- correct: {sum(r['correct'] for r in rows)} of {len(rows)} cases")


if __name__ == "__main__":
    main()
