"""Generates examples/kmeans_hopper.mlir (fp16, D = 128) and kmeans_hopper_f32.mlir (fp32 read as
tf32, D = 64) from one template: the two kernels differ only in element type, D and the wgmma K step.

  python3 examples/templates/kmeans_hopper.py f16 examples/templates/kmeans_hopper.header > examples/kmeans_hopper.mlir
  python3 examples/templates/kmeans_hopper.py f32 examples/templates/kmeans_hopper_f32.header > examples/kmeans_hopper_f32.mlir
"""
import sys

def kernel(name, ty, D, half_cols, kstep, header):
    H = half_cols
    xbuf = f"!cake.smem<2x2x1x128x{H}x{ty}, swizzle = 128>"
    cbuf = f"!cake.smem<2x2x1x256x{H}x{ty}, swizzle = 128>"
    tx = f"!cake.tma<[B, N, {D}], {ty}, box [1, 128, {H}], swizzle = 128>"
    tc = f"!cake.tma<[B, K, {D}], {ty}, box [1, 256, {H}], swizzle = 128>"
    ks = [kstep * i for i in range(H // kstep)]
    consts = sorted(set([0, 1, 64, 128, 256, H] + ks))
    wg = []
    prev = "%zero"
    n = 0
    for chunk in (0, 1):
        for k in ks:
            wg.append(f"        %a{n} = cake.wgmma %xbuf[%xslot, %c{chunk}, %c0, %row, %c{k}], %cbuf[%cslot, %c{chunk}, %c0, %c0, %c{k}], {prev}\n"
                      f"            : {xbuf}, {cbuf}, vector<128xf32>")
            prev = f"%a{n}"
            n += 1
    wgmmas = "\n".join(wg)
    cdecl = "\n".join(f"  %c{c} = arith.constant {c} : index" for c in consts)
    xbytes = 128 * D * (2 if ty == "f16" else 4)
    cbytes = 256 * D * (2 if ty == "f16" else 4) + 1024
    return f'''{header}
cake.kernel @{name}(
    %x: !cake.tensor<[B, N, {D}], {ty}> {{cake.name = "x"}},
    %tx: {tx} {{cake.name = "tx", cake.describes = "x"}},
    %c: !cake.tensor<[B, K, {D}], {ty}> {{cake.name = "c"}},
    %tc: {tc} {{cake.name = "tc", cake.describes = "c"}},
    %csq: !cake.tensor<[B, K], f32> {{cake.name = "csq"}},
    %tcsq: !cake.tma<[B, K], f32, box [1, 256]> {{cake.name = "tcsq", cake.describes = "csq"}},
    %idx: !cake.tensor<[B, N], i32> {{cake.name = "idx"}})
    attributes {{target = "sm_90a", block = array<i64: 384>, symbols = ["B", "N", "K"],
                grid = affine_map<()[b, n, k] -> (132)>}} {{
{cdecl}
  %bdim = cake.problem_size "B"
  %ndim = cake.problem_size "N"
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c256 : index
  %per_batch = arith.ceildivui %ndim, %c128 : index
  %tiles = arith.muli %bdim, %per_batch : index
  // This block's point tiles: bid, bid + nblocks, ... below `tiles`.
  %bid = cake.block_id x
  %nblocks = cake.grid_dim x
  %has = arith.cmpi ult, %bid, %tiles : index
  %left = arith.subi %tiles, %bid : index
  %some = arith.ceildivui %left, %nblocks : index
  %count = arith.select %has, %some, %c0 : index

  %xbuf = cake.alloc_smem : {xbuf}
  %cbuf = cake.alloc_smem : {cbuf}
  %csqbuf = cake.alloc_smem : !cake.smem<2x1x256xf32>
  // Every consumer thread releases a stage after its last read of it.
  %xpipe = cake.pipeline.create consumers 256 : !cake.pipeline<2>
  %cpipe = cake.pipeline.create consumers 256 : !cake.pipeline<2>

  cake.warp_roles {{
    cake.role "producer" warps [0, 4) regs 40 {{
      %warp = cake.warp_id
      %first = arith.cmpi eq, %warp, %c0 : index
      scf.if %first {{
        %leader = cake.elect_one
        scf.if %leader {{
          scf.for %i = %c0 to %count step %c1 {{
            %step = arith.muli %i, %nblocks : index
            %t = arith.addi %bid, %step : index
            %b = arith.divui %t, %per_batch : index
            %tb = arith.remui %t, %per_batch : index
            %m0 = arith.muli %tb, %c128 : index
            cake.pipeline.producer_acquire %xpipe[%i] : !cake.pipeline<2>
            cake.pipeline.producer_commit %xpipe[%i], tx_bytes {xbytes} : !cake.pipeline<2>
            %xslot = cake.pipeline.slot %xpipe[%i] : !cake.pipeline<2>
            cake.tma.load %tx[%b, %m0, %c0], %xbuf[%xslot, %c0], %xpipe[%i]
                : {tx}, {xbuf}, !cake.pipeline<2>
            cake.tma.load %tx[%b, %m0, %c{H}], %xbuf[%xslot, %c1], %xpipe[%i]
                : {tx}, {xbuf}, !cake.pipeline<2>
            %it0 = arith.muli %i, %ktiles : index
            scf.for %kt = %c0 to %ktiles step %c1 {{
              %it = arith.addi %it0, %kt : index
              cake.pipeline.producer_acquire %cpipe[%it] : !cake.pipeline<2>
              cake.pipeline.producer_commit %cpipe[%it], tx_bytes {cbytes} : !cake.pipeline<2>
              %cslot = cake.pipeline.slot %cpipe[%it] : !cake.pipeline<2>
              %k0 = arith.muli %kt, %c256 : index
              cake.tma.load %tc[%b, %k0, %c0], %cbuf[%cslot, %c0], %cpipe[%it]
                  : {tc}, {cbuf}, !cake.pipeline<2>
              cake.tma.load %tc[%b, %k0, %c{H}], %cbuf[%cslot, %c1], %cpipe[%it]
                  : {tc}, {cbuf}, !cake.pipeline<2>
              cake.tma.load %tcsq[%b, %k0], %csqbuf[%cslot], %cpipe[%it]
                  : !cake.tma<[B, K], f32, box [1, 256]>, !cake.smem<2x1x256xf32>, !cake.pipeline<2>
            }}
          }}
        }}
      }}
    }}
    cake.role "consumer" warps [4, 12) regs 232 {{
      %wg = cake.warpgroup_id
      %half = arith.subi %wg, %c1 : index
      %row = arith.muli %half, %c64 : index
      %zero = arith.constant dense<0.0> : vector<128xf32>
      %inf = arith.constant dense<0x7F800000> : vector<2xf32>
      %none = arith.constant dense<0> : vector<2xi32>
      scf.for %i = %c0 to %count step %c1 {{
        %step = arith.muli %i, %nblocks : index
        %t = arith.addi %bid, %step : index
        %b = arith.divui %t, %per_batch : index
        %tb = arith.remui %t, %per_batch : index
        %m0 = arith.muli %tb, %c128 : index
        cake.pipeline.consumer_wait %xpipe[%i] : !cake.pipeline<2>
        %xslot = cake.pipeline.slot %xpipe[%i] : !cake.pipeline<2>
        %it0 = arith.muli %i, %ktiles : index
        %best:2 = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%bv = %inf, %bi = %none)
            -> (vector<2xf32>, vector<2xi32>) {{
          %it = arith.addi %it0, %kt : index
          cake.pipeline.consumer_wait %cpipe[%it] : !cake.pipeline<2>
          %cslot = cake.pipeline.slot %cpipe[%it] : !cake.pipeline<2>
          cake.wgmma.fence
{wgmmas}
          cake.wgmma.commit
          cake.wgmma.wait 0
          %k0 = arith.muli %kt, %c256 : index
          %valid = arith.subi %kdim, %k0 : index
          %v, %col = cake.wgmma.row_arg_reduce argmin {prev}, scale -2.0, valid %valid,
              %csqbuf[%cslot, %c0, %c0] : vector<128xf32>, !cake.smem<2x1x256xf32>
          cake.pipeline.consumer_release %cpipe[%it] : !cake.pipeline<2>
          %k0i = arith.index_cast %k0 : index to i32
          %k0v = vector.broadcast %k0i : i32 to vector<2xi32>
          %colk = arith.addi %col, %k0v : vector<2xi32>
          %closer = arith.cmpf olt, %v, %bv : vector<2xf32>
          %nbv = arith.select %closer, %v, %bv : vector<2xi1>, vector<2xf32>
          %nbi = arith.select %closer, %colk, %bi : vector<2xi1>, vector<2xi32>
          scf.yield %nbv, %nbi : vector<2xf32>, vector<2xi32>
        }}
        cake.pipeline.consumer_release %xpipe[%i] : !cake.pipeline<2>
        %mrow = arith.addi %m0, %row : index
        cake.wgmma.store_rows %best#1, %idx[%b, %mrow] masked : vector<2xi32>, !cake.tensor<[B, N], i32>
      }}
    }}
  }}
  cake.return
}}
'''
which = sys.argv[1]
hdr = open(sys.argv[2]).read()
if which == "f16":
    print(kernel("kmeans_hopper", "f16", 128, 64, 16, hdr))
else:
    print(kernel("kmeans_hopper_f32", "f32", 64, 32, 8, hdr))
