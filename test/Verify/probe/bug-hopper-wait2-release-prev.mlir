// A buggy kernel written for session 32's probe of the verifier (in no other file then),
// and the findings cake-verify gave it.
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: error: {{.*}}[pipeline.release-in-flight]
// BUG: keeps two wgmma groups in flight (wait 2) but still releases stage kt-1, whose group may still be reading it: producer's TMA overwrites an operand in use.
cake.kernel @hopper_gemm(
    %a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
    %ta: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"},
    %b: !cake.tensor<[N, K], bf16> {cake.name = "b"},
    %tb: !cake.tma<[N, K], bf16, box [256, 64], swizzle = 128> {cake.name = "tb", cake.describes = "b"},
    %c: !cake.tensor<[M, N], f32> {cake.name = "c"})
    attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (n ceildiv 256, m ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c64 : index
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c128 : index
  %n0 = arith.muli %bn, %c256 : index

  %abuf = cake.alloc_smem : !cake.smem<4x128x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<4x256x64xbf16, swizzle = 128>
  %pipe = cake.pipeline.create consumers 2 : !cake.pipeline<4>

  cake.warp_roles {
    cake.role "producer" warps [0, 4) regs 40 {
      %warp = cake.warp_id
      %first = arith.cmpi eq, %warp, %c0 : index
      scf.if %first {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %kt = %c0 to %ktiles step %c1 {
            cake.pipeline.producer_acquire %pipe[%kt] : !cake.pipeline<4>
            cake.pipeline.producer_commit %pipe[%kt], tx_bytes 49152 : !cake.pipeline<4>
            %slot = cake.pipeline.slot %pipe[%kt] : !cake.pipeline<4>
            %k0 = arith.muli %kt, %c64 : index
            cake.tma.load %ta[%m0, %k0], %abuf[%slot], %pipe[%kt]
                : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>,
                  !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.pipeline<4>
            cake.tma.load %tb[%n0, %k0], %bbuf[%slot], %pipe[%kt]
                : !cake.tma<[N, K], bf16, box [256, 64], swizzle = 128>,
                  !cake.smem<4x256x64xbf16, swizzle = 128>, !cake.pipeline<4>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 12) regs 232 {
      %wg = cake.warpgroup_id
      %half = arith.subi %wg, %c1 : index
      %row = arith.muli %half, %c64 : index
      %tid = cake.thread_id x
      %lane128 = arith.remui %tid, %c128 : index
      %arrives = arith.cmpi eq, %lane128, %c0 : index
      %zero = arith.constant dense<0.0> : vector<128xf32>
      %acc = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc0 = %zero) -> (vector<128xf32>) {
        cake.pipeline.consumer_wait %pipe[%kt] : !cake.pipeline<4>
        %slot = cake.pipeline.slot %pipe[%kt] : !cake.pipeline<4>
        cake.wgmma.fence
        %acc1 = cake.wgmma %abuf[%slot, %row, %c0], %bbuf[%slot, %c0, %c0], %acc0
            : !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.smem<4x256x64xbf16, swizzle = 128>, vector<128xf32>
        %acc2 = cake.wgmma %abuf[%slot, %row, %c16], %bbuf[%slot, %c0, %c16], %acc1
            : !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.smem<4x256x64xbf16, swizzle = 128>, vector<128xf32>
        %acc3 = cake.wgmma %abuf[%slot, %row, %c32], %bbuf[%slot, %c0, %c32], %acc2
            : !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.smem<4x256x64xbf16, swizzle = 128>, vector<128xf32>
        %acc4 = cake.wgmma %abuf[%slot, %row, %c48], %bbuf[%slot, %c0, %c48], %acc3
            : !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.smem<4x256x64xbf16, swizzle = 128>, vector<128xf32>
        cake.wgmma.commit
        // Keep this group in flight; the previous one has retired, so its stage is free.
        cake.wgmma.wait 2
        %has_prev = arith.cmpi ugt, %kt, %c0 : index
        %release = arith.andi %has_prev, %arrives : i1
        scf.if %release {
          %prev = arith.subi %kt, %c1 : index
          cake.pipeline.consumer_release %pipe[%prev] : !cake.pipeline<4>
        }
        scf.yield %acc4 : vector<128xf32>
      }
      cake.wgmma.wait 0
      %mrow = arith.addi %m0, %row : index
      cake.wgmma.store %acc, %c[%mrow, %n0] masked : vector<128xf32>, !cake.tensor<[M, N], f32>
    }
  }
  cake.return
}
