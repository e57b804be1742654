// The Ampere-path ops through the whole pipeline to PTX and, with ptxas, to sm_80 and sm_90a
// cubins: zero-filling cp.async (.cg 16 bytes, .ca 4 and 8 bytes), commit/wait groups, ldmatrix
// x4/x2/x1.trans, mma.sync bf16/f16 m16n8k16 and tf32 m16n8k8, and the accumulator pair stores.
//
// REQUIRES: ptxas
// RUN: cake-translate %s --emit=ptx | FileCheck %s
// RUN: rm -f %t.cubin %t.log %t.sm90a.cubin %t.sm90a.log
// RUN: cake-translate %s --emit=cubin -o %t.cubin --ptxas-log %t.log
// RUN: FileCheck %s --check-prefix=PTXAS < %t.log
// RUN: cake-translate %s --chip=sm_90a --emit=cubin -o %t.sm90a.cubin --ptxas-log %t.sm90a.log
// RUN: FileCheck %s --check-prefix=PTXAS90 < %t.sm90a.log

// CHECK: .target sm_80
// CHECK: .entry ampere_ptx(
// Zero-fill: the fourth operand is the src-size register (bytes inside the tensor).
// CHECK: cp.async.cg.shared.global [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 16, {{%r[0-9]+}};
// CHECK: cp.async.ca.shared.global [{{%rd[0-9]+(\+[0-9]+)?}}], [{{%rd[0-9]+}}], 4, {{%r[0-9]+}};
// CHECK: cp.async.ca.shared.global [{{%rd[0-9]+(\+[0-9]+)?}}], [{{%rd[0-9]+}}], 8;
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group 1;
// CHECK: bar.sync 0;
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}, [{{%rd[0-9]+}}];
// CHECK: ldmatrix.sync.aligned.m8n8.x2.shared.b16 {{{%r[0-9]+}}, {{%r[0-9]+}}}, [{{%rd[0-9]+}}];
// CHECK: ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {{{%r[0-9]+}}}, [{{%rd[0-9]+}}];
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK: st.global.v2.{{f32|b32}}
// PTXAS: Compiling entry function 'ampere_ptx' for 'sm_80'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS90: Compiling entry function 'ampere_ptx' for 'sm_90a'

cake.kernel @ampere_ptx(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
                        %x: !cake.tensor<[M, K], f32> {cake.name = "x"},
                        %c: !cake.tensor<[M, N], f32> {cake.name = "c"})
    attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %i = cake.thread_id x
  %buf = cake.alloc_smem : !cake.smem<2x64x32xbf16, swizzle = 64>
  %fbuf = cake.alloc_smem : !cake.smem<16x32xf32>
  cake.cp_async %a[%i, %c0], %buf[%c0, %i, %c0], bytes 16 masked : !cake.tensor<[M, K], bf16>, !cake.smem<2x64x32xbf16, swizzle = 64>
  cake.cp_async %x[%i, %c0], %fbuf[%c0, %i], bytes 4 masked : !cake.tensor<[M, K], f32>, !cake.smem<16x32xf32>
  cake.cp_async %x[%i, %c0], %fbuf[%c0, %i], bytes 8 : !cake.tensor<[M, K], f32>, !cake.smem<16x32xf32>
  cake.cp_async.commit
  cake.cp_async.wait 1
  cake.barrier
  %fa = cake.ldmatrix %buf[%c0, %i, %c0] : !cake.smem<2x64x32xbf16, swizzle = 64> -> vector<8xbf16>
  %fb = cake.ldmatrix %buf[%c0, %i, %c0] : !cake.smem<2x64x32xbf16, swizzle = 64> -> vector<4xbf16>
  %ft = cake.ldmatrix %buf[%c0, %i, %c0] trans : !cake.smem<2x64x32xbf16, swizzle = 64> -> vector<1xi32>
  %acc0 = arith.constant dense<0.0> : vector<4xf32>
  %acc1 = cake.mma_sync %fa, %fb, %acc0 : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
  %ta = cake.ldmatrix %fbuf[%i, %c0] : !cake.smem<16x32xf32> -> vector<4xf32>
  %tb = cake.ldmatrix %fbuf[%i, %c0] : !cake.smem<16x32xf32> -> vector<2xf32>
  %acc2 = cake.mma_sync %ta, %tb, %acc1 : vector<4xf32>, vector<2xf32>, vector<4xf32>
  %ha = vector.bitcast %fa : vector<8xbf16> to vector<8xf16>
  %hb = vector.bitcast %fb : vector<4xbf16> to vector<4xf16>
  %acc3 = cake.mma_sync %ha, %hb, %acc2 : vector<8xf16>, vector<4xf16>, vector<4xf32>
  %t0 = vector.extract %ft[0] : i32 from vector<1xi32>
  %tf = arith.sitofp %t0 : i32 to f32
  %tv = vector.broadcast %tf : f32 to vector<4xf32>
  %acc4 = arith.addf %acc3, %tv : vector<4xf32>
  cake.mma_sync.store %acc4, %c[%i, %c0] : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.return
}
