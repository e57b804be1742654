// Register-blocked fp32 SGEMM (tunable): C[M, N] = A[M, K] * B[K, N], all row-major, fp32 FMA and
// fp32 accumulation (no tensor cores). Same kernel name, parameters and reference (gemm_ref) as
// agent/tasks/seeds/gemm.mlir; any M, N, K (every global access is 4 bytes and masked).
//
// Tunables: BM x BN block tile, BK the K depth of one shared-memory stage, TM x TN outputs per
// thread (multiples of 4), STAGES the depth of the cp.async ring. Derived: TXN = BN / TN threads
// along N, TYN = BM / TM along M, NT = TXN * TYN threads per block; SA = BM BK / NT = BK TM TN / BN
// and SB = BK BN / NT = BK TM TN / BM elements of the A and B tiles each thread copies per stage
// (the task's constraints make all of them integers).
//
// Thread -> tile mapping (tid in [0, NT), tx = tid mod TXN, ty = tid / TXN):
//   the thread owns TM rows and TN columns of the block's BM x BN tile, in groups of 4
//   consecutive ones, the groups strided by 4 TYN rows (4 TXN columns):
//     row(i) = (i / 4) * 4 TYN + 4 ty + i mod 4,   i in [0, TM)   (covers [0, BM) once over ty, i)
//     col(j) = (j / 4) * 4 TXN + 4 tx + j mod 4,   j in [0, TN)   (covers [0, BN) once over tx, j)
//   element i * TN + j of one vector<TM*TN x f32> accumulator is C[row0 + row(i), col0 + col(j)],
//   row0 = BM * block_id.y, col0 = BN * block_id.x.
//   The strided groups keep the fragment reads free of bank conflicts: for a fixed group the lanes
//   of a warp read consecutive 16-byte chunks of a B row, or a few (broadcast) chunks of an A row.
// Shared memory, a ring of STAGES slots; K tile t (k in [t BK, t BK + BK)) lives in slot t mod STAGES:
//   at[slot, k, r] = A[row0 + r, t BK + k]  (A transposed, rows padded by 4 floats: a thread reads
//                                            a group of 4 rows as one vector<4xf32>)
//   bs[slot, k, c] = B[t BK + k, col0 + c]
// Copies (4-byte cp.async; element e = tid + s NT, s in [0, SA) resp. [0, SB), covers each tile once):
//   A: r = e / BK, k = e mod BK   (a warp reads runs of BK consecutive floats of rows of A)
//   B: k = e / BN, c = e mod BN   (a warp reads consecutive floats of a row of B)
//   `masked` zero-fills rows >= M, columns >= N and k >= K: a ragged tile adds zero products, and
//   tiles past the last one (issued by the last STAGES - 1 steps, never read) are all zeros.
// Pipeline: the prologue issues tiles 0 .. STAGES - 2, one commit group each. Step t waits until at
//   most STAGES - 2 of the thread's groups are pending (tile t has landed), then a block barrier
//   publishes every thread's copies of tile t and ends every read of slot (t - 1) mod STAGES (step
//   t - 1's FMAs), which then receives tile t + STAGES - 1 (one group; past the last tile its
//   copies read nothing and only zero-fill).
//   Then BK rank-1 updates from slot t mod STAGES: per k, TM / 4 + TN / 4 vector<4xf32> shared loads
//   and TM * TN FMAs.
// Epilogue: element-wise masked stores of C[row0 + row(i), col0 + col(j)] (rows >= M or columns
//   >= N are not written).
cake.kernel @gemm(%a: !cake.tensor<[M, K], f32> {cake.name = "a"},
                  %b: !cake.tensor<[K, N], f32> {cake.name = "b"},
                  %c: !cake.tensor<[M, N], f32> {cake.name = "c"})
    attributes {target = "sm_90a", block = array<i64: {{(BM // TM) * (BN // TN)}}>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (n ceildiv {{BN}}, m ceildiv {{BM}})>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cbm = arith.constant {{BM}} : index
  %cbn = arith.constant {{BN}} : index
  %cbk = arith.constant {{BK}} : index
  %ctm = arith.constant {{TM}} : index
  %ctn = arith.constant {{TN}} : index
  %ctm4 = arith.constant {{TM // 4}} : index
  %ctn4 = arith.constant {{TN // 4}} : index
  %cnt = arith.constant {{(BM // TM) * (BN // TN)}} : index
  %ctxn = arith.constant {{BN // TN}} : index
  %cgm = arith.constant {{4 * (BM // TM)}} : index
  %cgn = arith.constant {{4 * (BN // TN)}} : index
  %csa = arith.constant {{BK * TM * TN // BN}} : index
  %csb = arith.constant {{BK * TM * TN // BM}} : index
  %cst = arith.constant {{STAGES}} : index
  %cpre = arith.constant {{STAGES - 1}} : index
  %zacc = arith.constant dense<0.0> : vector<{{TM * TN}}xf32>
  %zm = arith.constant dense<0.0> : vector<{{TM}}xf32>
  %zn = arith.constant dense<0.0> : vector<{{TN}}xf32>
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %cbk : index
  %tid = cake.thread_id x
  %bn = cake.block_id x
  %bm = cake.block_id y
  %tx = arith.remui %tid, %ctxn : index
  %ty = arith.divui %tid, %ctxn : index
  %tx4 = arith.muli %tx, %c4 : index
  %ty4 = arith.muli %ty, %c4 : index
  %row0 = arith.muli %bm, %cbm : index
  %col0 = arith.muli %bn, %cbn : index
  %at = cake.alloc_smem : !cake.smem<{{STAGES}}x{{BK}}x{{BM}}xf32, pad = 4>
  %bs = cake.alloc_smem : !cake.smem<{{STAGES}}x{{BK}}x{{BN}}xf32>

  // Prologue: K tiles 0 .. STAGES - 2 into slots 0 .. STAGES - 2, one group each.
  scf.for %pt = %c0 to %cpre step %c1 {
    %pk0 = arith.muli %pt, %cbk : index
    scf.for %s = %c0 to %csa step %c1 {
      %ss = arith.muli %s, %cnt : index
      %e = arith.addi %tid, %ss : index
      %ar = arith.divui %e, %cbk : index
      %ak = arith.remui %e, %cbk : index
      %gar = arith.addi %row0, %ar : index
      %gak = arith.addi %pk0, %ak : index
      cake.cp_async %a[%gar, %gak], %at[%pt, %ak, %ar], bytes 4 masked : !cake.tensor<[M, K], f32>, !cake.smem<{{STAGES}}x{{BK}}x{{BM}}xf32, pad = 4>
    }
    scf.for %s = %c0 to %csb step %c1 {
      %ss = arith.muli %s, %cnt : index
      %e = arith.addi %tid, %ss : index
      %bk = arith.divui %e, %cbn : index
      %bc = arith.remui %e, %cbn : index
      %gbk = arith.addi %pk0, %bk : index
      %gbc = arith.addi %col0, %bc : index
      cake.cp_async %b[%gbk, %gbc], %bs[%pt, %bk, %bc], bytes 4 masked : !cake.tensor<[K, N], f32>, !cake.smem<{{STAGES}}x{{BK}}x{{BN}}xf32>
    }
    cake.cp_async.commit
  }

  %acc = scf.for %t = %c0 to %ktiles step %c1 iter_args(%accin = %zacc) -> (vector<{{TM * TN}}xf32>) {
    // Tile t has landed for this thread; the barrier publishes all threads' copies and frees the
    // slot read at step t - 1.
    cake.cp_async.wait {{STAGES - 2}}
    cake.barrier
    %nt = arith.addi %t, %cpre : index
    %nslot = arith.remui %nt, %cst : index
    %nk0 = arith.muli %nt, %cbk : index
    scf.for %s = %c0 to %csa step %c1 {
      %ss = arith.muli %s, %cnt : index
      %e = arith.addi %tid, %ss : index
      %ar = arith.divui %e, %cbk : index
      %ak = arith.remui %e, %cbk : index
      %gar = arith.addi %row0, %ar : index
      %gak = arith.addi %nk0, %ak : index
      cake.cp_async %a[%gar, %gak], %at[%nslot, %ak, %ar], bytes 4 masked : !cake.tensor<[M, K], f32>, !cake.smem<{{STAGES}}x{{BK}}x{{BM}}xf32, pad = 4>
    }
    scf.for %s = %c0 to %csb step %c1 {
      %ss = arith.muli %s, %cnt : index
      %e = arith.addi %tid, %ss : index
      %bk = arith.divui %e, %cbn : index
      %bc = arith.remui %e, %cbn : index
      %gbk = arith.addi %nk0, %bk : index
      %gbc = arith.addi %col0, %bc : index
      cake.cp_async %b[%gbk, %gbc], %bs[%nslot, %bk, %bc], bytes 4 masked : !cake.tensor<[K, N], f32>, !cake.smem<{{STAGES}}x{{BK}}x{{BN}}xf32>
    }
    cake.cp_async.commit

    // BK rank-1 updates from slot t mod STAGES.
    %slot = arith.remui %t, %cst : index
    %accout = scf.for %kk = %c0 to %cbk step %c1 iter_args(%acck = %accin) -> (vector<{{TM * TN}}xf32>) {
      // a[i] = at[slot, kk, row(i)]: TM / 4 vector loads.
      %af = scf.for %g = %c0 to %ctm4 step %c1 iter_args(%fa = %zm) -> (vector<{{TM}}xf32>) {
        %gr = arith.muli %g, %cgm : index
        %r = arith.addi %gr, %ty4 : index
        %v4 = cake.load %at[%slot, %kk, %r] : !cake.smem<{{STAGES}}x{{BK}}x{{BM}}xf32, pad = 4> -> vector<4xf32>
        %g4 = arith.muli %g, %c4 : index
        %fa2 = scf.for %q = %c0 to %c4 step %c1 iter_args(%w = %fa) -> (vector<{{TM}}xf32>) {
          %x = vector.extract %v4[%q] : f32 from vector<4xf32>
          %i = arith.addi %g4, %q : index
          %w2 = vector.insert %x, %w[%i] : f32 into vector<{{TM}}xf32>
          scf.yield %w2 : vector<{{TM}}xf32>
        }
        scf.yield %fa2 : vector<{{TM}}xf32>
      }
      // b[j] = bs[slot, kk, col(j)]: TN / 4 vector loads.
      %bf = scf.for %g = %c0 to %ctn4 step %c1 iter_args(%fb = %zn) -> (vector<{{TN}}xf32>) {
        %gc = arith.muli %g, %cgn : index
        %cc = arith.addi %gc, %tx4 : index
        %v4 = cake.load %bs[%slot, %kk, %cc] : !cake.smem<{{STAGES}}x{{BK}}x{{BN}}xf32> -> vector<4xf32>
        %g4 = arith.muli %g, %c4 : index
        %fb2 = scf.for %q = %c0 to %c4 step %c1 iter_args(%w = %fb) -> (vector<{{TN}}xf32>) {
          %x = vector.extract %v4[%q] : f32 from vector<4xf32>
          %j = arith.addi %g4, %q : index
          %w2 = vector.insert %x, %w[%j] : f32 into vector<{{TN}}xf32>
          scf.yield %w2 : vector<{{TN}}xf32>
        }
        scf.yield %fb2 : vector<{{TN}}xf32>
      }
      // acc[i * TN + j] += a[i] * b[j].
      %accr = scf.for %i = %c0 to %ctm step %c1 iter_args(%ai = %acck) -> (vector<{{TM * TN}}xf32>) {
        %x = vector.extract %af[%i] : f32 from vector<{{TM}}xf32>
        %base = arith.muli %i, %ctn : index
        %aj = scf.for %j = %c0 to %ctn step %c1 iter_args(%aij = %ai) -> (vector<{{TM * TN}}xf32>) {
          %y = vector.extract %bf[%j] : f32 from vector<{{TN}}xf32>
          %idx = arith.addi %base, %j : index
          %old = vector.extract %aij[%idx] : f32 from vector<{{TM * TN}}xf32>
          %new = math.fma %x, %y, %old : f32
          %aij2 = vector.insert %new, %aij[%idx] : f32 into vector<{{TM * TN}}xf32>
          scf.yield %aij2 : vector<{{TM * TN}}xf32>
        }
        scf.yield %aj : vector<{{TM * TN}}xf32>
      }
      scf.yield %accr : vector<{{TM * TN}}xf32>
    }
    scf.yield %accout : vector<{{TM * TN}}xf32>
  }
  // Retire the trailing (zero-fill) groups before the block exits.
  cake.cp_async.wait 0

  // Epilogue: C[row0 + row(i), col0 + col(j)] = acc[i * TN + j], masked.
  scf.for %i = %c0 to %ctm step %c1 {
    %ig = arith.divui %i, %c4 : index
    %iq = arith.remui %i, %c4 : index
    %igr = arith.muli %ig, %cgm : index
    %r1 = arith.addi %igr, %ty4 : index
    %r2 = arith.addi %r1, %iq : index
    %row = arith.addi %row0, %r2 : index
    %base = arith.muli %i, %ctn : index
    scf.for %j = %c0 to %ctn step %c1 {
      %jg = arith.divui %j, %c4 : index
      %jq = arith.remui %j, %c4 : index
      %jgc = arith.muli %jg, %cgn : index
      %cl1 = arith.addi %jgc, %tx4 : index
      %cl2 = arith.addi %cl1, %jq : index
      %col = arith.addi %col0, %cl2 : index
      %idx = arith.addi %base, %j : index
      %x = vector.extract %acc[%idx] : f32 from vector<{{TM * TN}}xf32>
      cake.store %x, %c[%row, %col] masked : f32, !cake.tensor<[M, N], f32>
    }
  }
  cake.return
}
