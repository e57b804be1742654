// RUN: cake-opt %s -split-input-file -verify-diagnostics -o /dev/null \
// RUN:   --cake-load-rules=%S/Inputs/rule-big-block-wide-acc.mlir --cake-rule-big-block-wide-acc

// cakeBlockThreadsAtLeast(op, N): the rule matches only in kernels of at least N threads per block.

cake.kernel @big_block(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 1024>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : vector<64xf32>
  %a = arith.constant dense<0.0> : vector<8xf16>
  %buf = cake.alloc_smem : !cake.smem<128x64xf16, swizzle = 128>
  cake.wgmma.fence
  // expected-error @+2 {{'cake.wgmma.regs' op [rule.big-block-wide-acc] a 64-element accumulator in blocks of 1024 or more threads}}
  // expected-note @+1 {{fix: use smaller blocks or a narrower tile}}
  %d = cake.wgmma.regs %a, %buf[%c0, %c0], %zero : vector<8xf16>, !cake.smem<128x64xf16, swizzle = 128>, vector<64xf32>
  cake.wgmma.commit
  cake.wgmma.wait 0
  cake.return
}

// -----

// The same op in blocks of 512 threads: no finding.
cake.kernel @smaller_block(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 512>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : vector<64xf32>
  %a = arith.constant dense<0.0> : vector<8xf16>
  %buf = cake.alloc_smem : !cake.smem<128x64xf16, swizzle = 128>
  cake.wgmma.fence
  %d = cake.wgmma.regs %a, %buf[%c0, %c0], %zero : vector<8xf16>, !cake.smem<128x64xf16, swizzle = 128>, vector<64xf32>
  cake.wgmma.commit
  cake.wgmma.wait 0
  cake.return
}
