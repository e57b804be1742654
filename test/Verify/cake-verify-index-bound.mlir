// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-shapes -o /dev/null
// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// shape.index-bound: unmasked global accesses whose index depends on loaded data (offsets of
// variable-length sequences), judged by the upper bounds the conditions around them give.

// A chunk of 32 tokens starting at t0 < eos <= T reads all 32 unmasked: the last chunk of the
// last sequence reads past T when its length is not a multiple of 32.
cake.kernel @chunk_reads_past_end(%x: !cake.tensor<[T], f32> {cake.name = "x"},
                                  %cu: !cake.tensor<[S], i64> {cake.name = "cu_seqlens"},
                                  %y: !cake.tensor<[T], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["T", "N", "S"],
                grid = affine_map<()[t, n, s] -> (t ceildiv 32, n)>} {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %tid = cake.thread_id x
  %j = cake.block_id x
  %n = cake.block_id y
  %ntok = cake.problem_size "T"
  %n1 = arith.addi %n, %c1 : index
  %b64 = cake.load %cu[%n] : !cake.tensor<[S], i64> -> i64
  %e64 = cake.load %cu[%n1] : !cake.tensor<[S], i64> -> i64
  %br = arith.index_cast %b64 : i64 to index
  %er = arith.index_cast %e64 : i64 to index
  %bos = arith.minui %br, %ntok : index
  %eosc = arith.minui %er, %ntok : index
  %eos = arith.maxui %eosc, %bos : index
  %j32 = arith.muli %j, %c32 : index
  %t0 = arith.addi %bos, %j32 : index
  %live = arith.cmpi ult, %t0, %eos : index
  scf.if %live {
    %t = arith.addi %t0, %tid : index
    // expected-warning @+2 {{[shape.index-bound] expected index 0 of 'x' below T wherever the access runs, but the conditions around it bound it only by T + 30}}
    // expected-note @+1 {{fix: }}
    %v = cake.load %x[%t] : !cake.tensor<[T], f32> -> f32
    cake.store %v, %y[%t] masked : f32, !cake.tensor<[T], f32>
  }
  cake.return
}

// -----

// The same chunk with each token index clamped to the sequence's last token, and the store
// guarded by the chunk's length: both stay below T.
cake.kernel @chunk_clamped(%x: !cake.tensor<[T], f32> {cake.name = "x"},
                           %cu: !cake.tensor<[S], i64> {cake.name = "cu_seqlens"},
                           %y: !cake.tensor<[T], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["T", "N", "S"],
                grid = affine_map<()[t, n, s] -> (t ceildiv 32, n)>} {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %tid = cake.thread_id x
  %j = cake.block_id x
  %n = cake.block_id y
  %ntok = cake.problem_size "T"
  %n1 = arith.addi %n, %c1 : index
  %b64 = cake.load %cu[%n] : !cake.tensor<[S], i64> -> i64
  %e64 = cake.load %cu[%n1] : !cake.tensor<[S], i64> -> i64
  %br = arith.index_cast %b64 : i64 to index
  %er = arith.index_cast %e64 : i64 to index
  %bos = arith.minui %br, %ntok : index
  %eosc = arith.minui %er, %ntok : index
  %eos = arith.maxui %eosc, %bos : index
  %j32 = arith.muli %j, %c32 : index
  %t0 = arith.addi %bos, %j32 : index
  %live = arith.cmpi ult, %t0, %eos : index
  scf.if %live {
    %tlast = arith.subi %eos, %c1 : index
    %t = arith.addi %t0, %tid : index
    %tc = arith.minui %t, %tlast : index
    %v = cake.load %x[%tc] : !cake.tensor<[T], f32> -> f32
    %left = arith.subi %eos, %t0 : index
    %len = arith.minui %left, %c32 : index
    %in = arith.cmpi ult, %tid, %len : index
    scf.if %in {
      cake.store %v, %y[%t] : f32, !cake.tensor<[T], f32>
    }
  }
  cake.return
}

// -----

// A gather through loaded indices: nothing in the kernel relates them to N (the host's duty,
// not judged).
cake.kernel @gather(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                    %idx: !cake.tensor<[M], i32> {cake.name = "idx"},
                    %y: !cake.tensor<[M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N", "M"],
                grid = affine_map<()[n, m] -> (m ceildiv 128)>} {
  %c128 = arith.constant 128 : index
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %base = arith.muli %bid, %c128 : index
  %i = arith.addi %base, %tid : index
  %m = cake.problem_size "M"
  %in = arith.cmpi ult, %i, %m : index
  scf.if %in {
    %k32 = cake.load %idx[%i] : !cake.tensor<[M], i32> -> i32
    %k = arith.index_cast %k32 : i32 to index
    %v = cake.load %x[%k] : !cake.tensor<[N], f32> -> f32
    cake.store %v, %y[%i] : f32, !cake.tensor<[M], f32>
  }
  cake.return
}

// -----

// A loop over a sequence's tokens in steps of 4 that reads 4 unmasked tokens per step: the last
// step of a sequence whose length is not a multiple of 4 reads past its end, and past T for the
// last sequence.
cake.kernel @steps_of_four(%x: !cake.tensor<[T], f32> {cake.name = "x"},
                           %cu: !cake.tensor<[S], i64> {cake.name = "cu_seqlens"},
                           %y: !cake.tensor<[T], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["T", "N", "S"],
                grid = affine_map<()[t, n, s] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %n = cake.block_id x
  %ntok = cake.problem_size "T"
  %n1 = arith.addi %n, %c1 : index
  %b64 = cake.load %cu[%n] : !cake.tensor<[S], i64> -> i64
  %e64 = cake.load %cu[%n1] : !cake.tensor<[S], i64> -> i64
  %br = arith.index_cast %b64 : i64 to index
  %er = arith.index_cast %e64 : i64 to index
  %bos = arith.minui %br, %ntok : index
  %eosc = arith.minui %er, %ntok : index
  %eos = arith.maxui %eosc, %bos : index
  scf.for %t = %bos to %eos step %c4 {
    %t3 = arith.addi %t, %c3 : index
    // expected-warning @+2 {{[shape.index-bound] expected index 0 of 'x' below T wherever the access runs, but the conditions around it bound it only by T + 2}}
    // expected-note @+1 {{fix: }}
    %v = cake.load %x[%t3] : !cake.tensor<[T], f32> -> f32
    cake.store %v, %y[%t] masked : f32, !cake.tensor<[T], f32>
  }
  cake.return
}
