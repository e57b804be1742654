// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-shapes -o /dev/null
// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// cake-verify-shapes: kernels judged at ragged problem sizes their manifests allow.

// The grid rounds up but the accesses are not masked: the last block reads and writes past N.
cake.kernel @axpy_unmasked(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                           %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c256 = arith.constant 256 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c256 : index
  %i = arith.addi %base, %tid : index
  // expected-error @+2 {{[shape.out-of-bounds] expected index 0 of 'x' in [0, N) for every shape the manifest allows, but with N = 3 (block (0, 0, 0)) thread 3 reaches 3}}
  // expected-note @+1 {{fix: add `masked` to the access}}
  %v = cake.load %x[%i] : !cake.tensor<[N], f32> -> f32
  // expected-error @+2 {{[shape.out-of-bounds] expected index 0 of 'y' in [0, N)}}
  // expected-note @+1 {{fix:}}
  cake.store %v, %y[%i] : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// The same with masked accesses: right for every N.
cake.kernel @axpy_masked(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                         %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c256 = arith.constant 256 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c256 : index
  %i = arith.addi %base, %tid : index
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %y[%i] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// A guard on the problem size is an exact mask: only the threads inside N reach the accesses.
cake.kernel @axpy_guarded(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                          %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c256 = arith.constant 256 : index
  %n = cake.problem_size "N"
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c256 : index
  %i = arith.addi %base, %tid : index
  %inside = arith.cmpi ult, %i, %n : index
  scf.if %inside {
    %v = cake.load %x[%i] : !cake.tensor<[N], f32> -> f32
    cake.store %v, %y[%i] : f32, !cake.tensor<[N], f32>
  }
  cake.return
}

// -----

// Rows of D elements read 8 at a time: the manifest requires D % 8 == 0, so D is probed at
// multiples of 16 and the vector loop's last access ends inside the row. The centroid loop runs
// to K: in bounds for every K.
cake.kernel @rows_vectorized(%x: !cake.tensor<[N, D], f16> {cake.name = "x"},
                             %out: !cake.tensor<[N], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N", "D"],
                grid = affine_map<()[n, d] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant dense<0.0> : vector<8xf32>
  %ddim = cake.problem_size "D"
  %row = cake.block_id x
  %lane = cake.lane_id
  %lo = arith.muli %lane, %c8 : index
  %c256 = arith.constant 256 : index
  %sum = scf.for %j = %lo to %ddim step %c256 iter_args(%acc = %zero) -> (vector<8xf32>) {
    %h = cake.load %x[%row, %j] : !cake.tensor<[N, D], f16> -> vector<8xf16>
    %f = arith.extf %h : vector<8xf16> to vector<8xf32>
    %a = arith.addf %acc, %f : vector<8xf32>
    scf.yield %a : vector<8xf32>
  }
  %r = vector.reduction <add>, %sum : vector<8xf32> into f32
  %t = cake.warp_reduce sum %r : f32
  %first = arith.cmpi eq, %lane, %c0 : index
  scf.if %first {
    cake.store %t, %out[%row] : f32, !cake.tensor<[N], f32>
  }
  cake.return
}

// -----

// One warp per row, a lane per column: the reduction is skipped by the lanes past N, a partial
// warp whenever N is not a multiple of 32.
cake.kernel @short_rows_partial_warp(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                                     %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %c0 = arith.constant 0 : index
  %n = cake.problem_size "N"
  %row = cake.block_id x
  %lane = cake.lane_id
  %inside = arith.cmpi ult, %lane, %n : index
  // expected-note @+1 {{the threads split here, on a problem size}}
  scf.if %inside {
    %v = cake.load %x[%row, %lane] : !cake.tensor<[M, N], f32> -> f32
    // expected-error @+2 {{[shape.partial-collective] expected all 32 threads of warp 0 to execute this op for every shape the manifest allows, but with M = 3, N = 3 (block (0, 0, 0)) 3 do}}
    // expected-note @+1 {{fix: execute the op in every thread and mask what it combines}}
    %s = cake.warp_reduce sum %v : f32
    %first = arith.cmpi eq, %lane, %c0 : index
    scf.if %first {
      cake.store %s, %out[%row] : f32, !cake.tensor<[M], f32>
    }
  }
  cake.return
}

// -----

// The same with a masked load (lanes past N add 0): the whole warp reduces, for every N.
cake.kernel @short_rows_masked(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                               %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %c0 = arith.constant 0 : index
  %row = cake.block_id x
  %lane = cake.lane_id
  %v = cake.load %x[%row, %lane] masked : !cake.tensor<[M, N], f32> -> f32
  %s = cake.warp_reduce sum %v : f32
  %first = arith.cmpi eq, %lane, %c0 : index
  scf.if %first {
    cake.store %s, %out[%row] : f32, !cake.tensor<[M], f32>
  }
  cake.return
}

// -----

// The grid rounds down: for N < 1024 there is no block at all, and the tail is never written.
// expected-note @+1 {{the grid is affine_map<()[s0] -> (s0 floordiv 1024)>}}
cake.kernel @grid_floor(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                        %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n floordiv 1024)>} {
  %c4 = arith.constant 4 : index
  %c1024 = arith.constant 1024 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c1024 : index
  %off = arith.muli %tid, %c4 : index
  %i = arith.addi %base, %off : index
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  // expected-error @+2 {{[shape.uncovered-output] expected every element of 'y' to be written for every shape the manifest allows, but with N = 3 the grid has no block}}
  // expected-note @+1 {{fix: round the grid up}}
  cake.store %v, %y[%i] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}

// -----

// A persistent grid whose blocks take floor((tiles - bid) / grid) tiles: with fewer tiles than
// blocks no block takes any, and in general the last tiles are never computed.
cake.kernel @persistent_floor(%x: !cake.tensor<[M], f32> {cake.name = "x"},
                              %y: !cake.tensor<[M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M"],
                grid = affine_map<()[m] -> (8)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %m = cake.problem_size "M"
  %tiles = arith.ceildivui %m, %c32 : index
  %bid = cake.block_id x
  %nblocks = cake.grid_dim x
  %lane = cake.lane_id
  %has = arith.cmpi ult, %bid, %tiles : index
  %left = arith.subi %tiles, %bid : index
  %floor = arith.divui %left, %nblocks : index
  %count = arith.select %has, %floor, %c0 : index
  scf.for %i = %c0 to %count step %c1 {
    %step = arith.muli %i, %nblocks : index
    %t = arith.addi %bid, %step : index
    %m0 = arith.muli %t, %c32 : index
    %row = arith.addi %m0, %lane : index
    %v = cake.load %x[%row] masked : !cake.tensor<[M], f32> -> f32
    // expected-error @+2 {{[shape.uncovered-output] expected every element of 'y' to be written for every shape the manifest allows, but with M = 3 no block writes index 0 of dimension 0 (extent 3)}}
    // expected-note @+1 {{fix: cover the ragged tail}}
    cake.store %v, %y[%row] masked : f32, !cake.tensor<[M], f32>
  }
  cake.return
}

// -----

// The same with the ceiling: every tile is computed for every M.
cake.kernel @persistent_ceil(%x: !cake.tensor<[M], f32> {cake.name = "x"},
                             %y: !cake.tensor<[M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M"],
                grid = affine_map<()[m] -> (8)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %m = cake.problem_size "M"
  %tiles = arith.ceildivui %m, %c32 : index
  %bid = cake.block_id x
  %nblocks = cake.grid_dim x
  %lane = cake.lane_id
  %has = arith.cmpi ult, %bid, %tiles : index
  %left = arith.subi %tiles, %bid : index
  %ceil = arith.ceildivui %left, %nblocks : index
  %count = arith.select %has, %ceil, %c0 : index
  scf.for %i = %c0 to %count step %c1 {
    %step = arith.muli %i, %nblocks : index
    %t = arith.addi %bid, %step : index
    %m0 = arith.muli %t, %c32 : index
    %row = arith.addi %m0, %lane : index
    %v = cake.load %x[%row] masked : !cake.tensor<[M], f32> -> f32
    cake.store %v, %y[%row] masked : f32, !cake.tensor<[M], f32>
  }
  cake.return
}

// -----

// One partial sum per block into out[B]: the kernel never sees B (not in its grid, no
// cake.problem_size), so B is the host's to match to the grid, and out's extent is not judged.
cake.kernel @partial_sums(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                          %out: !cake.tensor<[B], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N", "B"],
                grid = affine_map<()[n, b] -> (n ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %bid = cake.block_id x
  %lane = cake.lane_id
  %base = arith.muli %bid, %c32 : index
  %i = arith.addi %base, %lane : index
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> f32
  %s = cake.warp_reduce sum %v : f32
  %first = arith.cmpi eq, %lane, %c0 : index
  scf.if %first {
    cake.store %s, %out[%bid] : f32, !cake.tensor<[B], f32>
  }
  cake.return
}

// -----

// A grid-stride loop (its step computed from the grid) over pairs: x[i + 1] is past the end when
// N is odd. The step is the same in every thread of a launch, so the counter's values are known.
cake.kernel @grid_stride_pairs(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                               %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (4)>} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %n = cake.problem_size "N"
  %bid = cake.block_id x
  %nb = cake.grid_dim x
  %tid = cake.thread_id x
  %b0 = arith.muli %bid, %c128 : index
  %g = arith.addi %b0, %tid : index
  %first = arith.muli %g, %c2 : index
  %threads = arith.muli %nb, %c128 : index
  %step = arith.muli %threads, %c2 : index
  scf.for %i = %first to %n step %step {
    %i1 = arith.addi %i, %c1 : index
    %a = cake.load %x[%i] : !cake.tensor<[N], f32> -> f32
    // expected-error @+2 {{[shape.out-of-bounds] expected index 0 of 'x' in [0, N) for every shape the manifest allows, but with N = 3 (block (0, 0, 0)) thread 1 reaches 3}}
    // expected-note @+1 {{fix:}}
    %b = cake.load %x[%i1] : !cake.tensor<[N], f32> -> f32
    %s = arith.addf %a, %b : f32
    %d = arith.subf %a, %b : f32
    cake.store %s, %y[%i] : f32, !cake.tensor<[N], f32>
    // expected-error @+2 {{[shape.out-of-bounds] expected index 0 of 'y' in [0, N)}}
    // expected-note @+1 {{fix:}}
    cake.store %d, %y[%i1] : f32, !cake.tensor<[N], f32>
  }
  cake.return
}

// -----

// Each thread publishes its element through an mbarrier counting the whole block, but only the
// threads inside N arrive: the last block of a ragged N waits forever.
cake.kernel @arrive_in_bounds_only(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                                   %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %s = cake.alloc_smem : !cake.smem<128xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    // expected-error @+2 {{[shape.arrival-count] expected 128 arrivals per phase (the init's count) for every shape the manifest allows, but with N = 3 (block (0, 0, 0)) 3 threads arrive}}
    // expected-note @+1 {{fix: arrive in every thread the count includes}}
    cake.mbarrier.init %bar[%c0], count 128 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %base = arith.muli %bid, %c128 : index
  %g = arith.addi %base, %tid : index
  %v = cake.load %x[%g] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %s[%tid] : f32, !cake.smem<128xf32>
  %n = cake.problem_size "N"
  %inside = arith.cmpi ult, %g, %n : index
  scf.if %inside {
    // expected-note @+1 {{3 threads arrive here}}
    cake.mbarrier.arrive %bar[%c0] : !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  %next = arith.addi %tid, %c1 : index
  %r = arith.minui %next, %c127 : index
  %w = cake.load %s[%r] : !cake.smem<128xf32> -> f32
  cake.store %w, %y[%g] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// Per-thread partial sums in shared memory, written only by the threads that have an element,
// then read by every thread: for N < 128 the tail slots hold stale values.
cake.kernel @partials_written_in_bounds_only(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                                             %y: !cake.tensor<[M, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %c127 = arith.constant 127 : index
  %n = cake.problem_size "N"
  // expected-note @+1 {{the buffer is allocated here}}
  %part = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %row = cake.block_id x
  %v = cake.load %x[%row, %tid] masked : !cake.tensor<[M, N], f32> -> f32
  %has = arith.cmpi ult, %tid, %n : index
  scf.if %has {
    cake.store %v, %part[%tid] : f32, !cake.smem<128xf32>
  }
  cake.barrier
  %mirror = arith.subi %c127, %tid : index
  // expected-error @+2 {{[shape.uninitialized-smem] expected every shared-memory element a thread reads to be written first, but with M = 3, N = 3 (block (0, 0, 0)) thread 0 reads index 127 of dimension 0, which no store to the buffer writes}}
  // expected-note @+1 {{fix: write every element the readers read}}
  %w = cake.load %part[%mirror] : !cake.smem<128xf32> -> f32
  cake.store %w, %y[%row, %tid] masked : f32, !cake.tensor<[M, 128], f32>
  cake.return
}

// -----

// The same with every slot written (threads without an element store 0): clean for every N.
cake.kernel @partials_all_written(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                                  %y: !cake.tensor<[M, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %c127 = arith.constant 127 : index
  %part = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %row = cake.block_id x
  %v = cake.load %x[%row, %tid] masked : !cake.tensor<[M, N], f32> -> f32
  cake.store %v, %part[%tid] : f32, !cake.smem<128xf32>
  cake.barrier
  %mirror = arith.subi %c127, %tid : index
  %w = cake.load %part[%mirror] : !cake.smem<128xf32> -> f32
  cake.store %w, %y[%row, %tid] masked : f32, !cake.tensor<[M, 128], f32>
  cake.return
}

// -----

// The row max over 32-wide chunks with masked loads: the padded elements of the last chunk enter
// the max as the default pad 0, wrong for rows of negative values.
cake.kernel @chunked_max_default_pad(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                                     %y: !cake.tensor<[M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %ninf = arith.constant 0xFF800000 : f32
  %n = cake.problem_size "N"
  %row = cake.block_id x
  %lane = cake.lane_id
  %chunks = arith.ceildivui %n, %c32 : index
  %end = arith.muli %chunks, %c32 : index
  %m = scf.for %j0 = %c0 to %end step %c32 iter_args(%acc = %ninf) -> (f32) {
    %j = arith.addi %j0, %lane : index
    // expected-error @+2 {{[shape.pad-identity] expected the padding of a masked load that feeds a max to be the max's identity (-inf), but it is the default 0: with M = 3, N = 3 (block (0, 0, 0)) thread 3 pads index 1 past N}}
    // expected-note @+1 {{fix: pad with the identity}}
    %v = cake.load %x[%row, %j] masked : !cake.tensor<[M, N], f32> -> f32
    // expected-note @+1 {{the padded elements reach this max}}
    %acc2 = arith.maximumf %acc, %v : f32
    scf.yield %acc2 : f32
  }
  %r = cake.warp_reduce max %m : f32
  %first = arith.cmpi eq, %lane, %c0 : index
  scf.if %first {
    cake.store %r, %y[%row] masked : f32, !cake.tensor<[M], f32>
  }
  cake.return
}

// -----

// The same padded with -inf, and a max over data the author knows are >= 0 with an explicit
// pad(0): both are what their authors meant.
cake.kernel @chunked_max_explicit_pads(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                                       %y: !cake.tensor<[M], f32> {cake.name = "y"},
                                       %z: !cake.tensor<[M], f32> {cake.name = "z"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %n = cake.problem_size "N"
  %row = cake.block_id x
  %lane = cake.lane_id
  %chunks = arith.ceildivui %n, %c32 : index
  %end = arith.muli %chunks, %c32 : index
  %m:2 = scf.for %j0 = %c0 to %end step %c32 iter_args(%a = %ninf, %b = %zero) -> (f32, f32) {
    %j = arith.addi %j0, %lane : index
    %v = cake.load %x[%row, %j] masked pad(%ninf : f32) : !cake.tensor<[M, N], f32> -> f32
    %a2 = arith.maximumf %a, %v : f32
    %w = cake.load %x[%row, %j] masked pad(%zero : f32) : !cake.tensor<[M, N], f32> -> f32
    %b2 = arith.maximumf %b, %w : f32
    scf.yield %a2, %b2 : f32, f32
  }
  %r = cake.warp_reduce max %m#0 : f32
  %s = cake.warp_reduce max %m#1 : f32
  %first = arith.cmpi eq, %lane, %c0 : index
  scf.if %first {
    cake.store %r, %y[%row] masked : f32, !cake.tensor<[M], f32>
    cake.store %s, %z[%row] masked : f32, !cake.tensor<[M], f32>
  }
  cake.return
}

// -----

// A kernel without sizes: the finding names none ("but no block writes", not "but with  no").
cake.kernel @fixed_half_written(%y: !cake.tensor<[64], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %tid = cake.thread_id x
  %one = arith.constant 1.0 : f32
  // expected-error @+2 {{[shape.uncovered-output] expected every element of 'y' to be written for every shape the manifest allows, but no block writes index 32 of dimension 0 (extent 64)}}
  // expected-note @+1 {{fix: cover the ragged tail}}
  cake.store %one, %y[%tid] : f32, !cake.tensor<[64], f32>
  cake.return
}

// -----

// A kernel specialized to N = 512 only ever runs at N = 512 (its manifest requires it): the
// unmasked accesses of @axpy_unmasked are right there, and the probes use that size only.
cake.kernel @axpy_unmasked_512(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                               %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>, specialize = {N = 512}} {
  %c256 = arith.constant 256 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c256 : index
  %i = arith.addi %base, %tid : index
  %v = cake.load %x[%i] : !cake.tensor<[N], f32> -> f32
  cake.store %v, %y[%i] : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// Specialized to a ragged size, the same kernel is wrong at that size.
cake.kernel @axpy_unmasked_500(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                               %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>, specialize = {N = 500}} {
  %c256 = arith.constant 256 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c256 : index
  %i = arith.addi %base, %tid : index
  // expected-error @+2 {{[shape.out-of-bounds] expected index 0 of 'x' in [0, N) for every shape the manifest allows, but with N = 500 (block (1, 0, 0)) thread 244 reaches 500}}
  // expected-note @+1 {{fix:}}
  %v = cake.load %x[%i] : !cake.tensor<[N], f32> -> f32
  // expected-error @+2 {{[shape.out-of-bounds] expected index 0 of 'y' in [0, N)}}
  // expected-note @+1 {{fix:}}
  cake.store %v, %y[%i] : f32, !cake.tensor<[N], f32>
  cake.return
}
