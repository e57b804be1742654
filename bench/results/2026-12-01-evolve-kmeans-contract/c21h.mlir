#map = affine_map<()[s0, s1, s2] -> ((s1 ceildiv 8) ceildiv 16, s0)>
module {
  cake.kernel @kmeans_fp16(%arg0: !cake.tensor<[B, N, 128], f16> {cake.name = "x"}, %arg1: !cake.tensor<[B, K, 128], f16> {cake.name = "c"}, %arg2: !cake.tensor<[B, K], f32> {cake.name = "csq"}, %arg3: !cake.tensor<[B, N], i32> {cake.name = "idx"}) attributes {block = array<i64: 256>, dynamic_smem = 0 : i64, grid = #map, symbols = ["B", "N", "K"], target = "sm_90a"} {
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    %c80 = arith.constant 80 : index
    %c96 = arith.constant 96 : index
    %c112 = arith.constant 112 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %c768 = arith.constant 768 : index
    %c1 = arith.constant 1 : index
    %c9 = arith.constant 9 : index
    %c17 = arith.constant 17 : index
    %c24 = arith.constant 24 : index
    %c25 = arith.constant 25 : index
    %c33 = arith.constant 33 : index
    %c40 = arith.constant 40 : index
    %c41 = arith.constant 41 : index
    %c49 = arith.constant 49 : index
    %c56 = arith.constant 56 : index
    %c57 = arith.constant 57 : index
    %c0_0 = arith.constant 0 : index
    %c1_1 = arith.constant 1 : index
    %c32_2 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %c8_3 = arith.constant 8 : index
    %cst = arith.constant 0x7F800000 : f32
    %cst_4 = arith.constant 0.000000e+00 : f32
    %cst_5 = arith.constant 2.000000e+00 : f32
    %0 = cake.problem_size "K"
    %1 = cake.block_id  x
    %2 = cake.block_id  y
    %3 = cake.warp_id
    %4 = cake.lane_id
    %5 = arith.muli %1, %c8_3 : index
    %6 = arith.addi %5, %3 : index
    %7 = arith.index_cast %0 : index to i32
    %8 = arith.divui %4, %c4 : index
    %9 = arith.remui %4, %c4 : index
    %10 = arith.muli %6, %c16 : index
    %11 = arith.addi %10, %8 : index
    %12 = arith.addi %11, %c8 : index
    %13 = arith.muli %9, %c2 : index
    %14 = arith.addi %13, %c8 : index
    %15 = cake.load %arg0[%2, %11, %13] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %16 = cake.load %arg0[%2, %12, %13] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %17 = cake.load %arg0[%2, %11, %14] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %18 = cake.load %arg0[%2, %12, %14] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %19 = vector.shuffle %15, %16 [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
    %20 = vector.shuffle %17, %18 [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
    %21 = vector.shuffle %19, %20 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf16>, vector<4xf16>
    %22 = arith.muli %9, %c2 : index
    %23 = arith.addi %22, %c16 : index
    %24 = arith.addi %23, %c8 : index
    %25 = cake.load %arg0[%2, %11, %23] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %26 = cake.load %arg0[%2, %12, %23] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %27 = cake.load %arg0[%2, %11, %24] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %28 = cake.load %arg0[%2, %12, %24] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %29 = vector.shuffle %25, %26 [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
    %30 = vector.shuffle %27, %28 [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
    %31 = vector.shuffle %29, %30 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf16>, vector<4xf16>
    %32 = arith.muli %9, %c2 : index
    %33 = arith.addi %32, %c32 : index
    %34 = arith.addi %33, %c8 : index
    %35 = cake.load %arg0[%2, %11, %33] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %36 = cake.load %arg0[%2, %12, %33] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %37 = cake.load %arg0[%2, %11, %34] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %38 = cake.load %arg0[%2, %12, %34] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %39 = vector.shuffle %35, %36 [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
    %40 = vector.shuffle %37, %38 [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
    %41 = vector.shuffle %39, %40 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf16>, vector<4xf16>
    %42 = arith.muli %9, %c2 : index
    %43 = arith.addi %42, %c48 : index
    %44 = arith.addi %43, %c8 : index
    %45 = cake.load %arg0[%2, %11, %43] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %46 = cake.load %arg0[%2, %12, %43] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %47 = cake.load %arg0[%2, %11, %44] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %48 = cake.load %arg0[%2, %12, %44] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %49 = vector.shuffle %45, %46 [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
    %50 = vector.shuffle %47, %48 [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
    %51 = vector.shuffle %49, %50 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf16>, vector<4xf16>
    %52 = arith.muli %9, %c2 : index
    %53 = arith.addi %52, %c64 : index
    %54 = arith.addi %53, %c8 : index
    %55 = cake.load %arg0[%2, %11, %53] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %56 = cake.load %arg0[%2, %12, %53] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %57 = cake.load %arg0[%2, %11, %54] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %58 = cake.load %arg0[%2, %12, %54] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %59 = vector.shuffle %55, %56 [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
    %60 = vector.shuffle %57, %58 [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
    %61 = vector.shuffle %59, %60 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf16>, vector<4xf16>
    %62 = arith.muli %9, %c2 : index
    %63 = arith.addi %62, %c80 : index
    %64 = arith.addi %63, %c8 : index
    %65 = cake.load %arg0[%2, %11, %63] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %66 = cake.load %arg0[%2, %12, %63] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %67 = cake.load %arg0[%2, %11, %64] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %68 = cake.load %arg0[%2, %12, %64] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %69 = vector.shuffle %65, %66 [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
    %70 = vector.shuffle %67, %68 [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
    %71 = vector.shuffle %69, %70 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf16>, vector<4xf16>
    %72 = arith.muli %9, %c2 : index
    %73 = arith.addi %72, %c96 : index
    %74 = arith.addi %73, %c8 : index
    %75 = cake.load %arg0[%2, %11, %73] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %76 = cake.load %arg0[%2, %12, %73] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %77 = cake.load %arg0[%2, %11, %74] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %78 = cake.load %arg0[%2, %12, %74] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %79 = vector.shuffle %75, %76 [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
    %80 = vector.shuffle %77, %78 [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
    %81 = vector.shuffle %79, %80 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf16>, vector<4xf16>
    %82 = arith.muli %9, %c2 : index
    %83 = arith.addi %82, %c112 : index
    %84 = arith.addi %83, %c8 : index
    %85 = cake.load %arg0[%2, %11, %83] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %86 = cake.load %arg0[%2, %12, %83] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %87 = cake.load %arg0[%2, %11, %84] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %88 = cake.load %arg0[%2, %12, %84] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
    %89 = vector.shuffle %85, %86 [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
    %90 = vector.shuffle %87, %88 [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
    %91 = vector.shuffle %89, %90 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf16>, vector<4xf16>
    %92 = cake.alloc_smem : !cake.smem<2x64x64xf16, swizzle = 128>
    %93 = cake.thread_id  x
    %94 = arith.divui %93, %c16 : index
    %95 = arith.remui %93, %c16 : index
    %96 = arith.muli %95, %c8 : index
    %97 = arith.addi %93, %c256 : index
    %98 = arith.divui %97, %c16 : index
    %99 = arith.remui %97, %c16 : index
    %100 = arith.muli %99, %c8 : index
    %101 = arith.addi %93, %c512 : index
    %102 = arith.divui %101, %c16 : index
    %103 = arith.remui %101, %c16 : index
    %104 = arith.muli %103, %c8 : index
    %105 = arith.addi %93, %c768 : index
    %106 = arith.divui %105, %c16 : index
    %107 = arith.remui %105, %c16 : index
    %108 = arith.muli %107, %c8 : index
    %109 = arith.addi %c0, %94 : index
    %110 = cake.load %arg1[%2, %109, %96] masked : !cake.tensor<[B, K, 128], f16> -> vector<8xf16>
    %111 = arith.addi %c0, %98 : index
    %112 = cake.load %arg1[%2, %111, %100] masked : !cake.tensor<[B, K, 128], f16> -> vector<8xf16>
    %113 = arith.addi %c0, %102 : index
    %114 = cake.load %arg1[%2, %113, %104] masked : !cake.tensor<[B, K, 128], f16> -> vector<8xf16>
    %115 = arith.addi %c0, %106 : index
    %116 = cake.load %arg1[%2, %115, %108] masked : !cake.tensor<[B, K, 128], f16> -> vector<8xf16>
    %117:8 = scf.for %arg4 = %c0 to %0 step %c64 iter_args(%arg5 = %cst, %arg6 = %7, %arg7 = %cst, %arg8 = %7, %arg9 = %110, %arg10 = %112, %arg11 = %114, %arg12 = %116) -> (f32, i32, f32, i32, vector<8xf16>, vector<8xf16>, vector<8xf16>, vector<8xf16>) {
      %120 = arith.addi %arg4, %c64 : index
      %121 = arith.divui %96, %c64 : index
      %122 = arith.remui %96, %c64 : index
      cake.store %arg9, %92[%121, %94, %122] : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>
      %123 = arith.divui %100, %c64 : index
      %124 = arith.remui %100, %c64 : index
      cake.store %arg10, %92[%123, %98, %124] : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>
      %125 = arith.divui %104, %c64 : index
      %126 = arith.remui %104, %c64 : index
      cake.store %arg11, %92[%125, %102, %126] : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>
      %127 = arith.divui %108, %c64 : index
      %128 = arith.remui %108, %c64 : index
      cake.store %arg12, %92[%127, %106, %128] : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>
      cake.fence.proxy_async
      cake.barrier
      %129 = arith.addi %120, %94 : index
      %130 = cake.load %arg1[%2, %129, %96] masked : !cake.tensor<[B, K, 128], f16> -> vector<8xf16>
      %131 = arith.addi %120, %98 : index
      %132 = cake.load %arg1[%2, %131, %100] masked : !cake.tensor<[B, K, 128], f16> -> vector<8xf16>
      %133 = arith.addi %120, %102 : index
      %134 = cake.load %arg1[%2, %133, %104] masked : !cake.tensor<[B, K, 128], f16> -> vector<8xf16>
      %135 = arith.addi %120, %106 : index
      %136 = cake.load %arg1[%2, %135, %108] masked : !cake.tensor<[B, K, 128], f16> -> vector<8xf16>
      %137 = arith.cmpi ule, %120, %0 : index
      %138:4 = scf.if %137 -> (f32, i32, f32, i32) {
        %cst_8 = arith.constant dense<0.000000e+00> : vector<32xf32>
        %147 = arith.muli %9, %c2 : index
        %148 = arith.addi %arg4, %147 : index
        %150 = cake.load %arg2[%2, %148] : !cake.tensor<[B, K], f32> -> f32
        %153 = arith.index_cast %148 : index to i32
        %158 = cake.load %arg2[%2, %148] : !cake.tensor<[B, K], f32> -> f32
        %161 = arith.index_cast %148 : index to i32
        %165 = arith.addi %148, %c1 : index
        %167 = cake.load %arg2[%2, %165] : !cake.tensor<[B, K], f32> -> f32
        %170 = arith.index_cast %165 : index to i32
        %175 = cake.load %arg2[%2, %165] : !cake.tensor<[B, K], f32> -> f32
        %178 = arith.index_cast %165 : index to i32
        %182 = arith.addi %148, %c8 : index
        %184 = cake.load %arg2[%2, %182] : !cake.tensor<[B, K], f32> -> f32
        %187 = arith.index_cast %182 : index to i32
        %192 = cake.load %arg2[%2, %182] : !cake.tensor<[B, K], f32> -> f32
        %195 = arith.index_cast %182 : index to i32
        %199 = arith.addi %148, %c9 : index
        %201 = cake.load %arg2[%2, %199] : !cake.tensor<[B, K], f32> -> f32
        %204 = arith.index_cast %199 : index to i32
        %209 = cake.load %arg2[%2, %199] : !cake.tensor<[B, K], f32> -> f32
        %212 = arith.index_cast %199 : index to i32
        %216 = arith.addi %148, %c16 : index
        %218 = cake.load %arg2[%2, %216] : !cake.tensor<[B, K], f32> -> f32
        %221 = arith.index_cast %216 : index to i32
        %226 = cake.load %arg2[%2, %216] : !cake.tensor<[B, K], f32> -> f32
        %229 = arith.index_cast %216 : index to i32
        %233 = arith.addi %148, %c17 : index
        %235 = cake.load %arg2[%2, %233] : !cake.tensor<[B, K], f32> -> f32
        %238 = arith.index_cast %233 : index to i32
        %243 = cake.load %arg2[%2, %233] : !cake.tensor<[B, K], f32> -> f32
        %246 = arith.index_cast %233 : index to i32
        %250 = arith.addi %148, %c24 : index
        %252 = cake.load %arg2[%2, %250] : !cake.tensor<[B, K], f32> -> f32
        %255 = arith.index_cast %250 : index to i32
        %260 = cake.load %arg2[%2, %250] : !cake.tensor<[B, K], f32> -> f32
        %263 = arith.index_cast %250 : index to i32
        %267 = arith.addi %148, %c25 : index
        %269 = cake.load %arg2[%2, %267] : !cake.tensor<[B, K], f32> -> f32
        %272 = arith.index_cast %267 : index to i32
        %277 = cake.load %arg2[%2, %267] : !cake.tensor<[B, K], f32> -> f32
        %280 = arith.index_cast %267 : index to i32
        %284 = arith.addi %148, %c32 : index
        %286 = cake.load %arg2[%2, %284] : !cake.tensor<[B, K], f32> -> f32
        %289 = arith.index_cast %284 : index to i32
        %294 = cake.load %arg2[%2, %284] : !cake.tensor<[B, K], f32> -> f32
        %297 = arith.index_cast %284 : index to i32
        %301 = arith.addi %148, %c33 : index
        %303 = cake.load %arg2[%2, %301] : !cake.tensor<[B, K], f32> -> f32
        %306 = arith.index_cast %301 : index to i32
        %311 = cake.load %arg2[%2, %301] : !cake.tensor<[B, K], f32> -> f32
        %314 = arith.index_cast %301 : index to i32
        %318 = arith.addi %148, %c40 : index
        %320 = cake.load %arg2[%2, %318] : !cake.tensor<[B, K], f32> -> f32
        %323 = arith.index_cast %318 : index to i32
        %328 = cake.load %arg2[%2, %318] : !cake.tensor<[B, K], f32> -> f32
        %331 = arith.index_cast %318 : index to i32
        %335 = arith.addi %148, %c41 : index
        %337 = cake.load %arg2[%2, %335] : !cake.tensor<[B, K], f32> -> f32
        %340 = arith.index_cast %335 : index to i32
        %345 = cake.load %arg2[%2, %335] : !cake.tensor<[B, K], f32> -> f32
        %348 = arith.index_cast %335 : index to i32
        %352 = arith.addi %148, %c48 : index
        %354 = cake.load %arg2[%2, %352] : !cake.tensor<[B, K], f32> -> f32
        %357 = arith.index_cast %352 : index to i32
        %362 = cake.load %arg2[%2, %352] : !cake.tensor<[B, K], f32> -> f32
        %365 = arith.index_cast %352 : index to i32
        %369 = arith.addi %148, %c49 : index
        %371 = cake.load %arg2[%2, %369] : !cake.tensor<[B, K], f32> -> f32
        %374 = arith.index_cast %369 : index to i32
        %379 = cake.load %arg2[%2, %369] : !cake.tensor<[B, K], f32> -> f32
        %382 = arith.index_cast %369 : index to i32
        %386 = arith.addi %148, %c56 : index
        %388 = cake.load %arg2[%2, %386] : !cake.tensor<[B, K], f32> -> f32
        %391 = arith.index_cast %386 : index to i32
        %396 = cake.load %arg2[%2, %386] : !cake.tensor<[B, K], f32> -> f32
        %399 = arith.index_cast %386 : index to i32
        %403 = arith.addi %148, %c57 : index
        %405 = cake.load %arg2[%2, %403] : !cake.tensor<[B, K], f32> -> f32
        %408 = arith.index_cast %403 : index to i32
        %413 = cake.load %arg2[%2, %403] : !cake.tensor<[B, K], f32> -> f32
        %416 = arith.index_cast %403 : index to i32
        cake.wgmma.fence
        %139 = cake.wgmma.regs %21, %92[%c0, %c0, %c0], %cst_8 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %140 = cake.wgmma.regs %31, %92[%c0, %c0, %c16], %139 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %141 = cake.wgmma.regs %41, %92[%c0, %c0, %c32], %140 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %142 = cake.wgmma.regs %51, %92[%c0, %c0, %c48], %141 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %143 = cake.wgmma.regs %61, %92[%c1, %c0, %c0], %142 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %144 = cake.wgmma.regs %71, %92[%c1, %c0, %c16], %143 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %145 = cake.wgmma.regs %81, %92[%c1, %c0, %c32], %144 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %146 = cake.wgmma.regs %91, %92[%c1, %c0, %c48], %145 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        cake.wgmma.commit
        cake.wgmma.wait 0
        %149 = vector.extract %146[0] : f32 from vector<32xf32>
        %151 = arith.mulf %cst_5, %149 fastmath<contract> : f32
        %152 = arith.subf %150, %151 fastmath<contract> : f32
        %154 = arith.cmpf olt, %152, %arg5 : f32
        %155 = arith.select %154, %152, %arg5 : f32
        %156 = arith.select %154, %153, %arg6 : i32
        %157 = vector.extract %146[2] : f32 from vector<32xf32>
        %159 = arith.mulf %cst_5, %157 fastmath<contract> : f32
        %160 = arith.subf %158, %159 fastmath<contract> : f32
        %162 = arith.cmpf olt, %160, %arg7 : f32
        %163 = arith.select %162, %160, %arg7 : f32
        %164 = arith.select %162, %161, %arg8 : i32
        %166 = vector.extract %146[1] : f32 from vector<32xf32>
        %168 = arith.mulf %cst_5, %166 fastmath<contract> : f32
        %169 = arith.subf %167, %168 fastmath<contract> : f32
        %171 = arith.cmpf olt, %169, %155 : f32
        %172 = arith.select %171, %169, %155 : f32
        %173 = arith.select %171, %170, %156 : i32
        %174 = vector.extract %146[3] : f32 from vector<32xf32>
        %176 = arith.mulf %cst_5, %174 fastmath<contract> : f32
        %177 = arith.subf %175, %176 fastmath<contract> : f32
        %179 = arith.cmpf olt, %177, %163 : f32
        %180 = arith.select %179, %177, %163 : f32
        %181 = arith.select %179, %178, %164 : i32
        %183 = vector.extract %146[4] : f32 from vector<32xf32>
        %185 = arith.mulf %cst_5, %183 fastmath<contract> : f32
        %186 = arith.subf %184, %185 fastmath<contract> : f32
        %188 = arith.cmpf olt, %186, %172 : f32
        %189 = arith.select %188, %186, %172 : f32
        %190 = arith.select %188, %187, %173 : i32
        %191 = vector.extract %146[6] : f32 from vector<32xf32>
        %193 = arith.mulf %cst_5, %191 fastmath<contract> : f32
        %194 = arith.subf %192, %193 fastmath<contract> : f32
        %196 = arith.cmpf olt, %194, %180 : f32
        %197 = arith.select %196, %194, %180 : f32
        %198 = arith.select %196, %195, %181 : i32
        %200 = vector.extract %146[5] : f32 from vector<32xf32>
        %202 = arith.mulf %cst_5, %200 fastmath<contract> : f32
        %203 = arith.subf %201, %202 fastmath<contract> : f32
        %205 = arith.cmpf olt, %203, %189 : f32
        %206 = arith.select %205, %203, %189 : f32
        %207 = arith.select %205, %204, %190 : i32
        %208 = vector.extract %146[7] : f32 from vector<32xf32>
        %210 = arith.mulf %cst_5, %208 fastmath<contract> : f32
        %211 = arith.subf %209, %210 fastmath<contract> : f32
        %213 = arith.cmpf olt, %211, %197 : f32
        %214 = arith.select %213, %211, %197 : f32
        %215 = arith.select %213, %212, %198 : i32
        %217 = vector.extract %146[8] : f32 from vector<32xf32>
        %219 = arith.mulf %cst_5, %217 fastmath<contract> : f32
        %220 = arith.subf %218, %219 fastmath<contract> : f32
        %222 = arith.cmpf olt, %220, %206 : f32
        %223 = arith.select %222, %220, %206 : f32
        %224 = arith.select %222, %221, %207 : i32
        %225 = vector.extract %146[10] : f32 from vector<32xf32>
        %227 = arith.mulf %cst_5, %225 fastmath<contract> : f32
        %228 = arith.subf %226, %227 fastmath<contract> : f32
        %230 = arith.cmpf olt, %228, %214 : f32
        %231 = arith.select %230, %228, %214 : f32
        %232 = arith.select %230, %229, %215 : i32
        %234 = vector.extract %146[9] : f32 from vector<32xf32>
        %236 = arith.mulf %cst_5, %234 fastmath<contract> : f32
        %237 = arith.subf %235, %236 fastmath<contract> : f32
        %239 = arith.cmpf olt, %237, %223 : f32
        %240 = arith.select %239, %237, %223 : f32
        %241 = arith.select %239, %238, %224 : i32
        %242 = vector.extract %146[11] : f32 from vector<32xf32>
        %244 = arith.mulf %cst_5, %242 fastmath<contract> : f32
        %245 = arith.subf %243, %244 fastmath<contract> : f32
        %247 = arith.cmpf olt, %245, %231 : f32
        %248 = arith.select %247, %245, %231 : f32
        %249 = arith.select %247, %246, %232 : i32
        %251 = vector.extract %146[12] : f32 from vector<32xf32>
        %253 = arith.mulf %cst_5, %251 fastmath<contract> : f32
        %254 = arith.subf %252, %253 fastmath<contract> : f32
        %256 = arith.cmpf olt, %254, %240 : f32
        %257 = arith.select %256, %254, %240 : f32
        %258 = arith.select %256, %255, %241 : i32
        %259 = vector.extract %146[14] : f32 from vector<32xf32>
        %261 = arith.mulf %cst_5, %259 fastmath<contract> : f32
        %262 = arith.subf %260, %261 fastmath<contract> : f32
        %264 = arith.cmpf olt, %262, %248 : f32
        %265 = arith.select %264, %262, %248 : f32
        %266 = arith.select %264, %263, %249 : i32
        %268 = vector.extract %146[13] : f32 from vector<32xf32>
        %270 = arith.mulf %cst_5, %268 fastmath<contract> : f32
        %271 = arith.subf %269, %270 fastmath<contract> : f32
        %273 = arith.cmpf olt, %271, %257 : f32
        %274 = arith.select %273, %271, %257 : f32
        %275 = arith.select %273, %272, %258 : i32
        %276 = vector.extract %146[15] : f32 from vector<32xf32>
        %278 = arith.mulf %cst_5, %276 fastmath<contract> : f32
        %279 = arith.subf %277, %278 fastmath<contract> : f32
        %281 = arith.cmpf olt, %279, %265 : f32
        %282 = arith.select %281, %279, %265 : f32
        %283 = arith.select %281, %280, %266 : i32
        %285 = vector.extract %146[16] : f32 from vector<32xf32>
        %287 = arith.mulf %cst_5, %285 fastmath<contract> : f32
        %288 = arith.subf %286, %287 fastmath<contract> : f32
        %290 = arith.cmpf olt, %288, %274 : f32
        %291 = arith.select %290, %288, %274 : f32
        %292 = arith.select %290, %289, %275 : i32
        %293 = vector.extract %146[18] : f32 from vector<32xf32>
        %295 = arith.mulf %cst_5, %293 fastmath<contract> : f32
        %296 = arith.subf %294, %295 fastmath<contract> : f32
        %298 = arith.cmpf olt, %296, %282 : f32
        %299 = arith.select %298, %296, %282 : f32
        %300 = arith.select %298, %297, %283 : i32
        %302 = vector.extract %146[17] : f32 from vector<32xf32>
        %304 = arith.mulf %cst_5, %302 fastmath<contract> : f32
        %305 = arith.subf %303, %304 fastmath<contract> : f32
        %307 = arith.cmpf olt, %305, %291 : f32
        %308 = arith.select %307, %305, %291 : f32
        %309 = arith.select %307, %306, %292 : i32
        %310 = vector.extract %146[19] : f32 from vector<32xf32>
        %312 = arith.mulf %cst_5, %310 fastmath<contract> : f32
        %313 = arith.subf %311, %312 fastmath<contract> : f32
        %315 = arith.cmpf olt, %313, %299 : f32
        %316 = arith.select %315, %313, %299 : f32
        %317 = arith.select %315, %314, %300 : i32
        %319 = vector.extract %146[20] : f32 from vector<32xf32>
        %321 = arith.mulf %cst_5, %319 fastmath<contract> : f32
        %322 = arith.subf %320, %321 fastmath<contract> : f32
        %324 = arith.cmpf olt, %322, %308 : f32
        %325 = arith.select %324, %322, %308 : f32
        %326 = arith.select %324, %323, %309 : i32
        %327 = vector.extract %146[22] : f32 from vector<32xf32>
        %329 = arith.mulf %cst_5, %327 fastmath<contract> : f32
        %330 = arith.subf %328, %329 fastmath<contract> : f32
        %332 = arith.cmpf olt, %330, %316 : f32
        %333 = arith.select %332, %330, %316 : f32
        %334 = arith.select %332, %331, %317 : i32
        %336 = vector.extract %146[21] : f32 from vector<32xf32>
        %338 = arith.mulf %cst_5, %336 fastmath<contract> : f32
        %339 = arith.subf %337, %338 fastmath<contract> : f32
        %341 = arith.cmpf olt, %339, %325 : f32
        %342 = arith.select %341, %339, %325 : f32
        %343 = arith.select %341, %340, %326 : i32
        %344 = vector.extract %146[23] : f32 from vector<32xf32>
        %346 = arith.mulf %cst_5, %344 fastmath<contract> : f32
        %347 = arith.subf %345, %346 fastmath<contract> : f32
        %349 = arith.cmpf olt, %347, %333 : f32
        %350 = arith.select %349, %347, %333 : f32
        %351 = arith.select %349, %348, %334 : i32
        %353 = vector.extract %146[24] : f32 from vector<32xf32>
        %355 = arith.mulf %cst_5, %353 fastmath<contract> : f32
        %356 = arith.subf %354, %355 fastmath<contract> : f32
        %358 = arith.cmpf olt, %356, %342 : f32
        %359 = arith.select %358, %356, %342 : f32
        %360 = arith.select %358, %357, %343 : i32
        %361 = vector.extract %146[26] : f32 from vector<32xf32>
        %363 = arith.mulf %cst_5, %361 fastmath<contract> : f32
        %364 = arith.subf %362, %363 fastmath<contract> : f32
        %366 = arith.cmpf olt, %364, %350 : f32
        %367 = arith.select %366, %364, %350 : f32
        %368 = arith.select %366, %365, %351 : i32
        %370 = vector.extract %146[25] : f32 from vector<32xf32>
        %372 = arith.mulf %cst_5, %370 fastmath<contract> : f32
        %373 = arith.subf %371, %372 fastmath<contract> : f32
        %375 = arith.cmpf olt, %373, %359 : f32
        %376 = arith.select %375, %373, %359 : f32
        %377 = arith.select %375, %374, %360 : i32
        %378 = vector.extract %146[27] : f32 from vector<32xf32>
        %380 = arith.mulf %cst_5, %378 fastmath<contract> : f32
        %381 = arith.subf %379, %380 fastmath<contract> : f32
        %383 = arith.cmpf olt, %381, %367 : f32
        %384 = arith.select %383, %381, %367 : f32
        %385 = arith.select %383, %382, %368 : i32
        %387 = vector.extract %146[28] : f32 from vector<32xf32>
        %389 = arith.mulf %cst_5, %387 fastmath<contract> : f32
        %390 = arith.subf %388, %389 fastmath<contract> : f32
        %392 = arith.cmpf olt, %390, %376 : f32
        %393 = arith.select %392, %390, %376 : f32
        %394 = arith.select %392, %391, %377 : i32
        %395 = vector.extract %146[30] : f32 from vector<32xf32>
        %397 = arith.mulf %cst_5, %395 fastmath<contract> : f32
        %398 = arith.subf %396, %397 fastmath<contract> : f32
        %400 = arith.cmpf olt, %398, %384 : f32
        %401 = arith.select %400, %398, %384 : f32
        %402 = arith.select %400, %399, %385 : i32
        %404 = vector.extract %146[29] : f32 from vector<32xf32>
        %406 = arith.mulf %cst_5, %404 fastmath<contract> : f32
        %407 = arith.subf %405, %406 fastmath<contract> : f32
        %409 = arith.cmpf olt, %407, %393 : f32
        %410 = arith.select %409, %407, %393 : f32
        %411 = arith.select %409, %408, %394 : i32
        %412 = vector.extract %146[31] : f32 from vector<32xf32>
        %414 = arith.mulf %cst_5, %412 fastmath<contract> : f32
        %415 = arith.subf %413, %414 fastmath<contract> : f32
        %417 = arith.cmpf olt, %415, %401 : f32
        %418 = arith.select %417, %415, %401 : f32
        %419 = arith.select %417, %416, %402 : i32
        scf.yield %410, %411, %418, %419 : f32, i32, f32, i32
      } else {
        %cst_8 = arith.constant dense<0.000000e+00> : vector<32xf32>
        cake.wgmma.fence
        %139 = cake.wgmma.regs %21, %92[%c0, %c0, %c0], %cst_8 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %140 = cake.wgmma.regs %31, %92[%c0, %c0, %c16], %139 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %141 = cake.wgmma.regs %41, %92[%c0, %c0, %c32], %140 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %142 = cake.wgmma.regs %51, %92[%c0, %c0, %c48], %141 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %143 = cake.wgmma.regs %61, %92[%c1, %c0, %c0], %142 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %144 = cake.wgmma.regs %71, %92[%c1, %c0, %c16], %143 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %145 = cake.wgmma.regs %81, %92[%c1, %c0, %c32], %144 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %146 = cake.wgmma.regs %91, %92[%c1, %c0, %c48], %145 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        cake.wgmma.commit
        cake.wgmma.wait 0
        %147 = arith.muli %9, %c2 : index
        %148 = arith.addi %arg4, %147 : index
        %149 = arith.cmpi ult, %148, %0 : index
        %150:4 = scf.if %149 -> (f32, i32, f32, i32) {
          %196 = vector.extract %146[0] : f32 from vector<32xf32>
          %197 = cake.load %arg2[%2, %148] : !cake.tensor<[B, K], f32> -> f32
          %198 = arith.mulf %cst_5, %196 fastmath<contract> : f32
          %199 = arith.subf %197, %198 fastmath<contract> : f32
          %200 = arith.index_cast %148 : index to i32
          %201 = arith.cmpf olt, %199, %arg5 : f32
          %202 = arith.select %201, %199, %arg5 : f32
          %203 = arith.select %201, %200, %arg6 : i32
          %204 = vector.extract %146[2] : f32 from vector<32xf32>
          %205 = cake.load %arg2[%2, %148] : !cake.tensor<[B, K], f32> -> f32
          %206 = arith.mulf %cst_5, %204 fastmath<contract> : f32
          %207 = arith.subf %205, %206 fastmath<contract> : f32
          %208 = arith.index_cast %148 : index to i32
          %209 = arith.cmpf olt, %207, %arg7 : f32
          %210 = arith.select %209, %207, %arg7 : f32
          %211 = arith.select %209, %208, %arg8 : i32
          scf.yield %202, %203, %210, %211 : f32, i32, f32, i32
        } else {
          scf.yield %arg5, %arg6, %arg7, %arg8 : f32, i32, f32, i32
        }
        %151 = arith.addi %148, %c1 : index
        %152 = arith.cmpi ult, %151, %0 : index
        %153:4 = scf.if %152 -> (f32, i32, f32, i32) {
          %196 = vector.extract %146[1] : f32 from vector<32xf32>
          %197 = cake.load %arg2[%2, %151] : !cake.tensor<[B, K], f32> -> f32
          %198 = arith.mulf %cst_5, %196 fastmath<contract> : f32
          %199 = arith.subf %197, %198 fastmath<contract> : f32
          %200 = arith.index_cast %151 : index to i32
          %201 = arith.cmpf olt, %199, %150#0 : f32
          %202 = arith.select %201, %199, %150#0 : f32
          %203 = arith.select %201, %200, %150#1 : i32
          %204 = vector.extract %146[3] : f32 from vector<32xf32>
          %205 = cake.load %arg2[%2, %151] : !cake.tensor<[B, K], f32> -> f32
          %206 = arith.mulf %cst_5, %204 fastmath<contract> : f32
          %207 = arith.subf %205, %206 fastmath<contract> : f32
          %208 = arith.index_cast %151 : index to i32
          %209 = arith.cmpf olt, %207, %150#2 : f32
          %210 = arith.select %209, %207, %150#2 : f32
          %211 = arith.select %209, %208, %150#3 : i32
          scf.yield %202, %203, %210, %211 : f32, i32, f32, i32
        } else {
          scf.yield %150#0, %150#1, %150#2, %150#3 : f32, i32, f32, i32
        }
        %154 = arith.addi %148, %c8 : index
        %155 = arith.cmpi ult, %154, %0 : index
        %156:4 = scf.if %155 -> (f32, i32, f32, i32) {
          %196 = vector.extract %146[4] : f32 from vector<32xf32>
          %197 = cake.load %arg2[%2, %154] : !cake.tensor<[B, K], f32> -> f32
          %198 = arith.mulf %cst_5, %196 fastmath<contract> : f32
          %199 = arith.subf %197, %198 fastmath<contract> : f32
          %200 = arith.index_cast %154 : index to i32
          %201 = arith.cmpf olt, %199, %153#0 : f32
          %202 = arith.select %201, %199, %153#0 : f32
          %203 = arith.select %201, %200, %153#1 : i32
          %204 = vector.extract %146[6] : f32 from vector<32xf32>
          %205 = cake.load %arg2[%2, %154] : !cake.tensor<[B, K], f32> -> f32
          %206 = arith.mulf %cst_5, %204 fastmath<contract> : f32
          %207 = arith.subf %205, %206 fastmath<contract> : f32
          %208 = arith.index_cast %154 : index to i32
          %209 = arith.cmpf olt, %207, %153#2 : f32
          %210 = arith.select %209, %207, %153#2 : f32
          %211 = arith.select %209, %208, %153#3 : i32
          scf.yield %202, %203, %210, %211 : f32, i32, f32, i32
        } else {
          scf.yield %153#0, %153#1, %153#2, %153#3 : f32, i32, f32, i32
        }
        %157 = arith.addi %148, %c9 : index
        %158 = arith.cmpi ult, %157, %0 : index
        %159:4 = scf.if %158 -> (f32, i32, f32, i32) {
          %196 = vector.extract %146[5] : f32 from vector<32xf32>
          %197 = cake.load %arg2[%2, %157] : !cake.tensor<[B, K], f32> -> f32
          %198 = arith.mulf %cst_5, %196 fastmath<contract> : f32
          %199 = arith.subf %197, %198 fastmath<contract> : f32
          %200 = arith.index_cast %157 : index to i32
          %201 = arith.cmpf olt, %199, %156#0 : f32
          %202 = arith.select %201, %199, %156#0 : f32
          %203 = arith.select %201, %200, %156#1 : i32
          %204 = vector.extract %146[7] : f32 from vector<32xf32>
          %205 = cake.load %arg2[%2, %157] : !cake.tensor<[B, K], f32> -> f32
          %206 = arith.mulf %cst_5, %204 fastmath<contract> : f32
          %207 = arith.subf %205, %206 fastmath<contract> : f32
          %208 = arith.index_cast %157 : index to i32
          %209 = arith.cmpf olt, %207, %156#2 : f32
          %210 = arith.select %209, %207, %156#2 : f32
          %211 = arith.select %209, %208, %156#3 : i32
          scf.yield %202, %203, %210, %211 : f32, i32, f32, i32
        } else {
          scf.yield %156#0, %156#1, %156#2, %156#3 : f32, i32, f32, i32
        }
        %160 = arith.addi %148, %c16 : index
        %161 = arith.cmpi ult, %160, %0 : index
        %162:4 = scf.if %161 -> (f32, i32, f32, i32) {
          %196 = vector.extract %146[8] : f32 from vector<32xf32>
          %197 = cake.load %arg2[%2, %160] : !cake.tensor<[B, K], f32> -> f32
          %198 = arith.mulf %cst_5, %196 fastmath<contract> : f32
          %199 = arith.subf %197, %198 fastmath<contract> : f32
          %200 = arith.index_cast %160 : index to i32
          %201 = arith.cmpf olt, %199, %159#0 : f32
          %202 = arith.select %201, %199, %159#0 : f32
          %203 = arith.select %201, %200, %159#1 : i32
          %204 = vector.extract %146[10] : f32 from vector<32xf32>
          %205 = cake.load %arg2[%2, %160] : !cake.tensor<[B, K], f32> -> f32
          %206 = arith.mulf %cst_5, %204 fastmath<contract> : f32
          %207 = arith.subf %205, %206 fastmath<contract> : f32
          %208 = arith.index_cast %160 : index to i32
          %209 = arith.cmpf olt, %207, %159#2 : f32
          %210 = arith.select %209, %207, %159#2 : f32
          %211 = arith.select %209, %208, %159#3 : i32
          scf.yield %202, %203, %210, %211 : f32, i32, f32, i32
        } else {
          scf.yield %159#0, %159#1, %159#2, %159#3 : f32, i32, f32, i32
        }
        %163 = arith.addi %148, %c17 : index
        %164 = arith.cmpi ult, %163, %0 : index
        %165:4 = scf.if %164 -> (f32, i32, f32, i32) {
          %196 = vector.extract %146[9] : f32 from vector<32xf32>
          %197 = cake.load %arg2[%2, %163] : !cake.tensor<[B, K], f32> -> f32
          %198 = arith.mulf %cst_5, %196 fastmath<contract> : f32
          %199 = arith.subf %197, %198 fastmath<contract> : f32
          %200 = arith.index_cast %163 : index to i32
          %201 = arith.cmpf olt, %199, %162#0 : f32
          %202 = arith.select %201, %199, %162#0 : f32
          %203 = arith.select %201, %200, %162#1 : i32
          %204 = vector.extract %146[11] : f32 from vector<32xf32>
          %205 = cake.load %arg2[%2, %163] : !cake.tensor<[B, K], f32> -> f32
          %206 = arith.mulf %cst_5, %204 fastmath<contract> : f32
          %207 = arith.subf %205, %206 fastmath<contract> : f32
          %208 = arith.index_cast %163 : index to i32
          %209 = arith.cmpf olt, %207, %162#2 : f32
          %210 = arith.select %209, %207, %162#2 : f32
          %211 = arith.select %209, %208, %162#3 : i32
          scf.yield %202, %203, %210, %211 : f32, i32, f32, i32
        } else {
          scf.yield %162#0, %162#1, %162#2, %162#3 : f32, i32, f32, i32
        }
        %166 = arith.addi %148, %c24 : index
        %167 = arith.cmpi ult, %166, %0 : index
        %168:4 = scf.if %167 -> (f32, i32, f32, i32) {
          %196 = vector.extract %146[12] : f32 from vector<32xf32>
          %197 = cake.load %arg2[%2, %166] : !cake.tensor<[B, K], f32> -> f32
          %198 = arith.mulf %cst_5, %196 fastmath<contract> : f32
          %199 = arith.subf %197, %198 fastmath<contract> : f32
          %200 = arith.index_cast %166 : index to i32
          %201 = arith.cmpf olt, %199, %165#0 : f32
          %202 = arith.select %201, %199, %165#0 : f32
          %203 = arith.select %201, %200, %165#1 : i32
          %204 = vector.extract %146[14] : f32 from vector<32xf32>
          %205 = cake.load %arg2[%2, %166] : !cake.tensor<[B, K], f32> -> f32
          %206 = arith.mulf %cst_5, %204 fastmath<contract> : f32
          %207 = arith.subf %205, %206 fastmath<contract> : f32
          %208 = arith.index_cast %166 : index to i32
          %209 = arith.cmpf olt, %207, %165#2 : f32
          %210 = arith.select %209, %207, %165#2 : f32
          %211 = arith.select %209, %208, %165#3 : i32
          scf.yield %202, %203, %210, %211 : f32, i32, f32, i32
        } else {
          scf.yield %165#0, %165#1, %165#2, %165#3 : f32, i32, f32, i32
        }
        %169 = arith.addi %148, %c25 : index
        %170 = arith.cmpi ult, %169, %0 : index
        %171:4 = scf.if %170 -> (f32, i32, f32, i32) {
          %196 = vector.extract %146[13] : f32 from vector<32xf32>
          %197 = cake.load %arg2[%2, %169] : !cake.tensor<[B, K], f32> -> f32
          %198 = arith.mulf %cst_5, %196 fastmath<contract> : f32
          %199 = arith.subf %197, %198 fastmath<contract> : f32
          %200 = arith.index_cast %169 : index to i32
          %201 = arith.cmpf olt, %199, %168#0 : f32
          %202 = arith.select %201, %199, %168#0 : f32
          %203 = arith.select %201, %200, %168#1 : i32
          %204 = vector.extract %146[15] : f32 from vector<32xf32>
          %205 = cake.load %arg2[%2, %169] : !cake.tensor<[B, K], f32> -> f32
          %206 = arith.mulf %cst_5, %204 fastmath<contract> : f32
          %207 = arith.subf %205, %206 fastmath<contract> : f32
          %208 = arith.index_cast %169 : index to i32
          %209 = arith.cmpf olt, %207, %168#2 : f32
          %210 = arith.select %209, %207, %168#2 : f32
          %211 = arith.select %209, %208, %168#3 : i32
          scf.yield %202, %203, %210, %211 : f32, i32, f32, i32
        } else {
          scf.yield %168#0, %168#1, %168#2, %168#3 : f32, i32, f32, i32
        }
        %172 = arith.addi %148, %c32 : index
        %173 = arith.cmpi ult, %172, %0 : index
        %174:4 = scf.if %173 -> (f32, i32, f32, i32) {
          %196 = vector.extract %146[16] : f32 from vector<32xf32>
          %197 = cake.load %arg2[%2, %172] : !cake.tensor<[B, K], f32> -> f32
          %198 = arith.mulf %cst_5, %196 fastmath<contract> : f32
          %199 = arith.subf %197, %198 fastmath<contract> : f32
          %200 = arith.index_cast %172 : index to i32
          %201 = arith.cmpf olt, %199, %171#0 : f32
          %202 = arith.select %201, %199, %171#0 : f32
          %203 = arith.select %201, %200, %171#1 : i32
          %204 = vector.extract %146[18] : f32 from vector<32xf32>
          %205 = cake.load %arg2[%2, %172] : !cake.tensor<[B, K], f32> -> f32
          %206 = arith.mulf %cst_5, %204 fastmath<contract> : f32
          %207 = arith.subf %205, %206 fastmath<contract> : f32
          %208 = arith.index_cast %172 : index to i32
          %209 = arith.cmpf olt, %207, %171#2 : f32
          %210 = arith.select %209, %207, %171#2 : f32
          %211 = arith.select %209, %208, %171#3 : i32
          scf.yield %202, %203, %210, %211 : f32, i32, f32, i32
        } else {
          scf.yield %171#0, %171#1, %171#2, %171#3 : f32, i32, f32, i32
        }
        %175 = arith.addi %148, %c33 : index
        %176 = arith.cmpi ult, %175, %0 : index
        %177:4 = scf.if %176 -> (f32, i32, f32, i32) {
          %196 = vector.extract %146[17] : f32 from vector<32xf32>
          %197 = cake.load %arg2[%2, %175] : !cake.tensor<[B, K], f32> -> f32
          %198 = arith.mulf %cst_5, %196 fastmath<contract> : f32
          %199 = arith.subf %197, %198 fastmath<contract> : f32
          %200 = arith.index_cast %175 : index to i32
          %201 = arith.cmpf olt, %199, %174#0 : f32
          %202 = arith.select %201, %199, %174#0 : f32
          %203 = arith.select %201, %200, %174#1 : i32
          %204 = vector.extract %146[19] : f32 from vector<32xf32>
          %205 = cake.load %arg2[%2, %175] : !cake.tensor<[B, K], f32> -> f32
          %206 = arith.mulf %cst_5, %204 fastmath<contract> : f32
          %207 = arith.subf %205, %206 fastmath<contract> : f32
          %208 = arith.index_cast %175 : index to i32
          %209 = arith.cmpf olt, %207, %174#2 : f32
          %210 = arith.select %209, %207, %174#2 : f32
          %211 = arith.select %209, %208, %174#3 : i32
          scf.yield %202, %203, %210, %211 : f32, i32, f32, i32
        } else {
          scf.yield %174#0, %174#1, %174#2, %174#3 : f32, i32, f32, i32
        }
        %178 = arith.addi %148, %c40 : index
        %179 = arith.cmpi ult, %178, %0 : index
        %180:4 = scf.if %179 -> (f32, i32, f32, i32) {
          %196 = vector.extract %146[20] : f32 from vector<32xf32>
          %197 = cake.load %arg2[%2, %178] : !cake.tensor<[B, K], f32> -> f32
          %198 = arith.mulf %cst_5, %196 fastmath<contract> : f32
          %199 = arith.subf %197, %198 fastmath<contract> : f32
          %200 = arith.index_cast %178 : index to i32
          %201 = arith.cmpf olt, %199, %177#0 : f32
          %202 = arith.select %201, %199, %177#0 : f32
          %203 = arith.select %201, %200, %177#1 : i32
          %204 = vector.extract %146[22] : f32 from vector<32xf32>
          %205 = cake.load %arg2[%2, %178] : !cake.tensor<[B, K], f32> -> f32
          %206 = arith.mulf %cst_5, %204 fastmath<contract> : f32
          %207 = arith.subf %205, %206 fastmath<contract> : f32
          %208 = arith.index_cast %178 : index to i32
          %209 = arith.cmpf olt, %207, %177#2 : f32
          %210 = arith.select %209, %207, %177#2 : f32
          %211 = arith.select %209, %208, %177#3 : i32
          scf.yield %202, %203, %210, %211 : f32, i32, f32, i32
        } else {
          scf.yield %177#0, %177#1, %177#2, %177#3 : f32, i32, f32, i32
        }
        %181 = arith.addi %148, %c41 : index
        %182 = arith.cmpi ult, %181, %0 : index
        %183:4 = scf.if %182 -> (f32, i32, f32, i32) {
          %196 = vector.extract %146[21] : f32 from vector<32xf32>
          %197 = cake.load %arg2[%2, %181] : !cake.tensor<[B, K], f32> -> f32
          %198 = arith.mulf %cst_5, %196 fastmath<contract> : f32
          %199 = arith.subf %197, %198 fastmath<contract> : f32
          %200 = arith.index_cast %181 : index to i32
          %201 = arith.cmpf olt, %199, %180#0 : f32
          %202 = arith.select %201, %199, %180#0 : f32
          %203 = arith.select %201, %200, %180#1 : i32
          %204 = vector.extract %146[23] : f32 from vector<32xf32>
          %205 = cake.load %arg2[%2, %181] : !cake.tensor<[B, K], f32> -> f32
          %206 = arith.mulf %cst_5, %204 fastmath<contract> : f32
          %207 = arith.subf %205, %206 fastmath<contract> : f32
          %208 = arith.index_cast %181 : index to i32
          %209 = arith.cmpf olt, %207, %180#2 : f32
          %210 = arith.select %209, %207, %180#2 : f32
          %211 = arith.select %209, %208, %180#3 : i32
          scf.yield %202, %203, %210, %211 : f32, i32, f32, i32
        } else {
          scf.yield %180#0, %180#1, %180#2, %180#3 : f32, i32, f32, i32
        }
        %184 = arith.addi %148, %c48 : index
        %185 = arith.cmpi ult, %184, %0 : index
        %186:4 = scf.if %185 -> (f32, i32, f32, i32) {
          %196 = vector.extract %146[24] : f32 from vector<32xf32>
          %197 = cake.load %arg2[%2, %184] : !cake.tensor<[B, K], f32> -> f32
          %198 = arith.mulf %cst_5, %196 fastmath<contract> : f32
          %199 = arith.subf %197, %198 fastmath<contract> : f32
          %200 = arith.index_cast %184 : index to i32
          %201 = arith.cmpf olt, %199, %183#0 : f32
          %202 = arith.select %201, %199, %183#0 : f32
          %203 = arith.select %201, %200, %183#1 : i32
          %204 = vector.extract %146[26] : f32 from vector<32xf32>
          %205 = cake.load %arg2[%2, %184] : !cake.tensor<[B, K], f32> -> f32
          %206 = arith.mulf %cst_5, %204 fastmath<contract> : f32
          %207 = arith.subf %205, %206 fastmath<contract> : f32
          %208 = arith.index_cast %184 : index to i32
          %209 = arith.cmpf olt, %207, %183#2 : f32
          %210 = arith.select %209, %207, %183#2 : f32
          %211 = arith.select %209, %208, %183#3 : i32
          scf.yield %202, %203, %210, %211 : f32, i32, f32, i32
        } else {
          scf.yield %183#0, %183#1, %183#2, %183#3 : f32, i32, f32, i32
        }
        %187 = arith.addi %148, %c49 : index
        %188 = arith.cmpi ult, %187, %0 : index
        %189:4 = scf.if %188 -> (f32, i32, f32, i32) {
          %196 = vector.extract %146[25] : f32 from vector<32xf32>
          %197 = cake.load %arg2[%2, %187] : !cake.tensor<[B, K], f32> -> f32
          %198 = arith.mulf %cst_5, %196 fastmath<contract> : f32
          %199 = arith.subf %197, %198 fastmath<contract> : f32
          %200 = arith.index_cast %187 : index to i32
          %201 = arith.cmpf olt, %199, %186#0 : f32
          %202 = arith.select %201, %199, %186#0 : f32
          %203 = arith.select %201, %200, %186#1 : i32
          %204 = vector.extract %146[27] : f32 from vector<32xf32>
          %205 = cake.load %arg2[%2, %187] : !cake.tensor<[B, K], f32> -> f32
          %206 = arith.mulf %cst_5, %204 fastmath<contract> : f32
          %207 = arith.subf %205, %206 fastmath<contract> : f32
          %208 = arith.index_cast %187 : index to i32
          %209 = arith.cmpf olt, %207, %186#2 : f32
          %210 = arith.select %209, %207, %186#2 : f32
          %211 = arith.select %209, %208, %186#3 : i32
          scf.yield %202, %203, %210, %211 : f32, i32, f32, i32
        } else {
          scf.yield %186#0, %186#1, %186#2, %186#3 : f32, i32, f32, i32
        }
        %190 = arith.addi %148, %c56 : index
        %191 = arith.cmpi ult, %190, %0 : index
        %192:4 = scf.if %191 -> (f32, i32, f32, i32) {
          %196 = vector.extract %146[28] : f32 from vector<32xf32>
          %197 = cake.load %arg2[%2, %190] : !cake.tensor<[B, K], f32> -> f32
          %198 = arith.mulf %cst_5, %196 fastmath<contract> : f32
          %199 = arith.subf %197, %198 fastmath<contract> : f32
          %200 = arith.index_cast %190 : index to i32
          %201 = arith.cmpf olt, %199, %189#0 : f32
          %202 = arith.select %201, %199, %189#0 : f32
          %203 = arith.select %201, %200, %189#1 : i32
          %204 = vector.extract %146[30] : f32 from vector<32xf32>
          %205 = cake.load %arg2[%2, %190] : !cake.tensor<[B, K], f32> -> f32
          %206 = arith.mulf %cst_5, %204 fastmath<contract> : f32
          %207 = arith.subf %205, %206 fastmath<contract> : f32
          %208 = arith.index_cast %190 : index to i32
          %209 = arith.cmpf olt, %207, %189#2 : f32
          %210 = arith.select %209, %207, %189#2 : f32
          %211 = arith.select %209, %208, %189#3 : i32
          scf.yield %202, %203, %210, %211 : f32, i32, f32, i32
        } else {
          scf.yield %189#0, %189#1, %189#2, %189#3 : f32, i32, f32, i32
        }
        %193 = arith.addi %148, %c57 : index
        %194 = arith.cmpi ult, %193, %0 : index
        %195:4 = scf.if %194 -> (f32, i32, f32, i32) {
          %196 = vector.extract %146[29] : f32 from vector<32xf32>
          %197 = cake.load %arg2[%2, %193] : !cake.tensor<[B, K], f32> -> f32
          %198 = arith.mulf %cst_5, %196 fastmath<contract> : f32
          %199 = arith.subf %197, %198 fastmath<contract> : f32
          %200 = arith.index_cast %193 : index to i32
          %201 = arith.cmpf olt, %199, %192#0 : f32
          %202 = arith.select %201, %199, %192#0 : f32
          %203 = arith.select %201, %200, %192#1 : i32
          %204 = vector.extract %146[31] : f32 from vector<32xf32>
          %205 = cake.load %arg2[%2, %193] : !cake.tensor<[B, K], f32> -> f32
          %206 = arith.mulf %cst_5, %204 fastmath<contract> : f32
          %207 = arith.subf %205, %206 fastmath<contract> : f32
          %208 = arith.index_cast %193 : index to i32
          %209 = arith.cmpf olt, %207, %192#2 : f32
          %210 = arith.select %209, %207, %192#2 : f32
          %211 = arith.select %209, %208, %192#3 : i32
          scf.yield %202, %203, %210, %211 : f32, i32, f32, i32
        } else {
          scf.yield %192#0, %192#1, %192#2, %192#3 : f32, i32, f32, i32
        }
        scf.yield %195#0, %195#1, %195#2, %195#3 : f32, i32, f32, i32
      }
      cake.barrier
      scf.yield %138#0, %138#1, %138#2, %138#3, %130, %132, %134, %136 : f32, i32, f32, i32, vector<8xf16>, vector<8xf16>, vector<8xf16>, vector<8xf16>
    }
    %result_value, %result_index = cake.warp_arg_reduce  argmin %117#0, %117#1 {lanes = 4 : i64} : f32, i32
    %118 = arith.cmpi eq, %9, %c0_0 : index
    scf.if %118 {
      cake.store %result_index, %arg3[%2, %11] masked : i32, !cake.tensor<[B, N], i32>
    }
    %result_value_6, %result_index_7 = cake.warp_arg_reduce  argmin %117#2, %117#3 {lanes = 4 : i64} : f32, i32
    %119 = arith.cmpi eq, %9, %c0_0 : index
    scf.if %119 {
      cake.store %result_index_7, %arg3[%2, %12] masked : i32, !cake.tensor<[B, N], i32>
    }
    cake.return
  }
}

