#!/usr/bin/env python3
"""Host side of the GPU cross-check: compiles every corpus kernel to a cubin + manifest (sm_80
kernels are compiled for sm_90a so they run on a Hopper GPU) under gpu/cubins/, and writes
gpu/plan.json: sizes (the header's SIZES), scalars, and for each buggy kernel the correct kernel
computing the same function, whose outputs (same seed, same inputs) it is compared with.

    python3 bench/verify-corpus/gpu/build.py          # then run_gpu.py on the GPU machine
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(CORPUS))
TRANSLATE = os.path.join(REPO, "build", "bin", "cake-translate")

# buggy-name pattern -> the correct kernel (same parameters, same function) to compare with.
REFS = [
    (r"^(ring_|persistent_ring_|carried_state_|persistent_rows_|one_slot_ring_|tma_ring_three)", "ring_rowsum_thread_release"),
    (r"^split_(smooth_(lane0|count255|double)|barrier_arrival)", "split_smooth_all_threads"),
    (r"^meet_", "meet_stage_signals"),
    (r"^dual_producer_", "dual_producer_count2"),
    (r"^two_box_", "two_box_elected_expect"),
    (r"^pingpong_", "pingpong_slot_parity"),
    (r"^gemm_scale_", "gemm_scale_after_final_wait"),
    (r"^(gemm_|pipeline4_over|wgmma_rows_from)", "gemm_release_current"),
    (r"^varlen_while_then_drain", "varlen_while_matching_bounds"),
    (r"^chunked_softmax_ninf_pad", "short_rows_softmax"),
    (r"^(scale_tiles_|tiles_)", "scale_tiles_wait_then_barrier"),
    (r"^relu_inplace_", "relu_inplace_wait_before_refill"),
    (r"^while_tma_loop_", "while_tma_loop_carried_parity"),
    (r"^while_staged_dot_", "while_staged_dot_two_barriers"),
    (r"^varlen_producer", "varlen_while_matching_bounds"),
    (r"^castmm_", "castmm_fenced"),
    (r"^regs_fragment_", "regs_fragment_from_global_wait0"),
    (r"^stmatrix_", "stmatrix_cast_fenced"),
    (r"^(rowdot_|cp_ring_mod4|cp_copy_rows)", "rowdot_double_buffer"),
    (r"^pair_ragged_", "pair_ragged_all_blocks_participate"),
    (r"^pair_ktiles_", "pair_ktiles_cluster_barrier_per_step"),
    (r"^pair_", "pair_multicast_weights"),
    (r"^two_pairs_", "two_pairs_shifted_mask"),
    (r"^row_handoff_", "row_handoff_two_barriers"),
    (r"^wg_reduce_", "wg_reduce_barrier_per_warpgroup"),
    (r"^stencil_", "stencil_halo_buffer"),
    (r"^normalise_", "normalise_by_last_element"),
    (r"^row_max_scratch_", "row_max_scratch_per_warp"),
    (r"^padded_tile_", "padded_tile_forward_difference"),
    (r"^transpose_tile_", "transpose_tile_barrier"),
    (r"^short_rows_softmax_", "short_rows_softmax"),
    (r"^chunked_softmax_", "chunked_softmax_ninf_pad"),
    (r"^axpy_", "axpy_masked"),
    (r"^row_sum_", "row_sum_all_slots_written"),
    (r"^block_sum_", "block_sum_tree_then_shuffle"),
    (r"^block_softmax_", "block_softmax_three_barriers"),
    (r"^chunk_scale_", "chunk_scale_broadcast"),
    (r"^block_scan_", "block_scan_two_barriers_per_step"),
    (r"^kloop_", "kloop_then_epilogue_reuse"),
    (r"^roles_arrive", "roles_write_then_arrive"),
]
INOUTS = {"axpy_masked": "y", "axpy_unmasked_tail": "y", "axpy_grid_floor": "y", "short_rows_argmax_lane_mask": "y"}


def header(path):
    meta = {}
    with open(path) as f:
        for line in f:
            if not line.startswith("//"):
                break
            m = re.match(r"^//\s*CORPUS:\s*verdict=(\w+)\s+class=([\w-]+)", line)
            if m:
                meta["verdict"], meta["class"] = m.groups()
            if line.startswith("// SIZES:"):
                meta["sizes"] = line.split(":", 1)[1].strip()
    return meta


def main():
    entries = []
    correct = {}
    for verdict in ("correct", "buggy"):
        for cls in sorted(os.listdir(os.path.join(CORPUS, verdict))):
            d = os.path.join(CORPUS, verdict, cls)
            for fn in sorted(os.listdir(d)):
                if not fn.endswith(".mlir"):
                    continue
                path = os.path.join(d, fn)
                name = fn[:-5]
                meta = header(path)
                text = open(path).read()
                out = os.path.join(HERE, "cubins", verdict, cls)
                os.makedirs(out, exist_ok=True)
                cubin = os.path.join(out, name + ".cubin")
                manifest = os.path.join(out, name + ".json")
                cmd = [TRANSLATE, path, "--emit=cubin", "-o", cubin, "--manifest", manifest]
                if 'target = "sm_80"' in text:
                    cmd.append("--chip=sm_90a")
                res = subprocess.run(cmd, capture_output=True, text=True)
                entry = {"verdict": verdict, "class": cls, "name": name, "sizes": meta.get("sizes", ""),
                         "cubin": os.path.relpath(cubin, REPO), "manifest": os.path.relpath(manifest, REPO),
                         "compiled": res.returncode == 0, "scalars": "alpha=1.5" if "%alpha: f32" in text else "",
                         "inouts": INOUTS.get(name, "")}
                if res.returncode != 0:
                    entry["compile_error"] = res.stderr.strip().splitlines()[0] if res.stderr.strip() else "?"
                if verdict == "correct":
                    correct[name] = entry
                for pat, ref in REFS:
                    if re.search(pat, name):
                        if ref != name:
                            entry["ref"] = ref
                        break
                entries.append(entry)
    for e in entries:
        if e.get("ref"):
            assert e["ref"] in correct, (e["name"], e["ref"])
            r = correct[e["ref"]]
            if r["sizes"] != e["sizes"]:
                e["ref_sizes_differ"] = True
    with open(os.path.join(HERE, "plan.json"), "w") as f:
        json.dump(entries, f, indent=1)
    bad = [e["name"] for e in entries if not e["compiled"]]
    print(f"{len(entries)} kernels, {len(bad)} not compiled: {bad}")
    print(f"{sum(1 for e in entries if e.get('ref'))} kernels paired with a correct one (same function)")


if __name__ == "__main__":
    sys.exit(main())
