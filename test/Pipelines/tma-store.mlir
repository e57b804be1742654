// REQUIRES: ptxas
// RUN: cake-opt %s | cake-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: cake-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: cake-translate %s --emit=cubin -o %t.cubin --manifest %t.json
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json

// A bf16 epilogue through shared memory: each warpgroup writes its tile with ordinary stores,
// fences the async proxy, synchronizes on its own named barrier, and one thread TMA-stores it.
// ROUNDTRIP: cake.named_barrier 1, threads 128
// ROUNDTRIP: cake.tma.store %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}] : !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128>
// ROUNDTRIP: cake.tma.store_commit
// ROUNDTRIP: cake.tma.store_wait 0
// PTX: st.shared
// PTX: fence.proxy.async.shared::cta
// PTX: bar.sync 1, 128
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [__cake_smem]
// PTX: cp.async.bulk.commit_group
// PTX: cp.async.bulk.wait_group.read 0
// MANIFEST: "access": "write",
// MANIFEST-NEXT: "dtype": "bf16",
// MANIFEST-NEXT: "kind": "tensor",
// MANIFEST-NEXT: "name": "c",
cake.kernel @tile_store(%c: !cake.tensor<[M, N], bf16> {cake.name = "c"},
                        %tc: !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128> {cake.name = "tc", cake.describes = "c"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 128, n ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %buf = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
  %wg = cake.warpgroup_id
  %t = cake.thread_id x
  %lane = arith.remui %t, %c128 : index
  %row = arith.divui %lane, %c64 : index
  %col = arith.remui %lane, %c64 : index
  %v = arith.constant 1.5 : bf16
  cake.store %v, %buf[%wg, %row, %col] : bf16, !cake.smem<2x64x64xbf16, swizzle = 128>
  cake.fence.proxy_async
  %first = arith.cmpi eq, %lane, %c0 : index
  cake.warp_roles {
    cake.role "wg0" warps [0, 4) {
      cake.named_barrier 1, threads 128
      scf.if %first {
        %bm = cake.block_id x
        %bn = cake.block_id y
        %m = arith.muli %bm, %c128 : index
        %n = arith.muli %bn, %c64 : index
        cake.tma.store %buf[%c0], %tc[%m, %n]
            : !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128>
        cake.tma.store_commit
        cake.tma.store_wait 0
      }
    }
  }
  cake.return
}
