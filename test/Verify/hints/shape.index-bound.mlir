// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (shape.index-bound), lib/Verify/VerifyShapes.cpp:305:
//   "add `masked` to the access, clamp the index to the last valid element (arith.minui with the
//    last index below T), or run the access under a condition that keeps it below T"
// The kernel (@chunk_reads_past_end of cake-verify-index-bound.mlir) reads a whole 32-token chunk
// unmasked, past T in the last chunk of the last sequence. Applied literally (first option):
// `masked` on the load. Tokens past T read the pad, and the masked store drops them. Honest.
// (Lanes past eos but below T still read and copy the next sequence's tokens, the same values
// the next sequence's block writes: outside this rule, which is about T.)

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
    // expected-note @+1 {{fix: add `masked` to the access, clamp the index to the last valid element (arith.minui with the last index below T), or run the access under a condition that keeps it below T}}
    %v = cake.load %x[%t] : !cake.tensor<[T], f32> -> f32
    cake.store %v, %y[%t] masked : f32, !cake.tensor<[T], f32>
  }
  cake.return
}

// -----

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
    %v = cake.load %x[%t] masked : !cake.tensor<[T], f32> -> f32
    cake.store %v, %y[%t] masked : f32, !cake.tensor<[T], f32>
  }
  cake.return
}
