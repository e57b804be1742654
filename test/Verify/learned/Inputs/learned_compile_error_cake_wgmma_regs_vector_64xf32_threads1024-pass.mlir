#map = affine_map<()[s0, s1, s2] -> ((s1 ceildiv 32) ceildiv 16, s0)>
module {
  cake.kernel @kmeans_fp16(%arg0: !cake.tensor<[B, N, 128], f16> {cake.name = "x"}, %arg1: !cake.tensor<[B, K, 128], f16> {cake.name = "c"}, %arg2: !cake.tensor<[B, K], f32> {cake.name = "csq"}, %arg3: !cake.tensor<[B, N], i32> {cake.name = "idx"}) attributes {block = array<i64: 1024>, dynamic_smem = 0 : i64, grid = #map, symbols = ["B", "N", "K"], target = "sm_90a"} {
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
    %c32_3 = arith.constant 32 : index
    %cst = arith.constant 0x7F800000 : f32
    %cst_4 = arith.constant 0.000000e+00 : f32
    %cst_5 = arith.constant 2.000000e+00 : f32
    %0 = cake.problem_size "K"
    %1 = cake.block_id  x
    %2 = cake.block_id  y
    %3 = cake.warp_id
    %4 = cake.lane_id
    %5 = arith.muli %1, %c32_3 : index
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
    %97 = arith.addi %c0, %94 : index
    %98 = cake.load %arg1[%2, %97, %96] masked : !cake.tensor<[B, K, 128], f16> -> vector<8xf16>
    %99:5 = scf.for %arg4 = %c0 to %0 step %c64 iter_args(%arg5 = %cst, %arg6 = %7, %arg7 = %cst, %arg8 = %7, %arg9 = %98) -> (f32, i32, f32, i32, vector<8xf16>) {
      %102 = arith.addi %arg4, %c64 : index
      %103 = arith.divui %96, %c64 : index
      %104 = arith.remui %96, %c64 : index
      cake.store %arg9, %92[%103, %94, %104] : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>
      cake.fence.proxy_async
      cake.barrier
      %105 = arith.addi %102, %94 : index
      %106 = cake.load %arg1[%2, %105, %96] masked : !cake.tensor<[B, K, 128], f16> -> vector<8xf16>
      %107 = arith.cmpi ule, %102, %0 : index
      %108:4 = scf.if %107 -> (f32, i32, f32, i32) {
        %cst_8 = arith.constant dense<0.000000e+00> : vector<32xf32>
        cake.wgmma.fence
        %109 = cake.wgmma.regs %21, %92[%c0, %c0, %c0], %cst_8 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %110 = cake.wgmma.regs %31, %92[%c0, %c0, %c16], %109 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %111 = cake.wgmma.regs %41, %92[%c0, %c0, %c32], %110 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %112 = cake.wgmma.regs %51, %92[%c0, %c0, %c48], %111 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %113 = cake.wgmma.regs %61, %92[%c1, %c0, %c0], %112 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %114 = cake.wgmma.regs %71, %92[%c1, %c0, %c16], %113 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %115 = cake.wgmma.regs %81, %92[%c1, %c0, %c32], %114 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %116 = cake.wgmma.regs %91, %92[%c1, %c0, %c48], %115 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        cake.wgmma.commit
        cake.wgmma.wait 0
        %117 = arith.muli %9, %c2 : index
        %118 = arith.addi %arg4, %117 : index
        %119 = vector.extract %116[0] : f32 from vector<32xf32>
        %120 = cake.load %arg2[%2, %118] : !cake.tensor<[B, K], f32> -> f32
        %121 = arith.mulf %cst_5, %119 : f32
        %122 = arith.subf %120, %121 : f32
        %123 = arith.index_cast %118 : index to i32
        %124 = arith.cmpf olt, %122, %arg5 : f32
        %125 = arith.select %124, %122, %arg5 : f32
        %126 = arith.select %124, %123, %arg6 : i32
        %127 = vector.extract %116[2] : f32 from vector<32xf32>
        %128 = cake.load %arg2[%2, %118] : !cake.tensor<[B, K], f32> -> f32
        %129 = arith.mulf %cst_5, %127 : f32
        %130 = arith.subf %128, %129 : f32
        %131 = arith.index_cast %118 : index to i32
        %132 = arith.cmpf olt, %130, %arg7 : f32
        %133 = arith.select %132, %130, %arg7 : f32
        %134 = arith.select %132, %131, %arg8 : i32
        %135 = arith.addi %118, %c1 : index
        %136 = vector.extract %116[1] : f32 from vector<32xf32>
        %137 = cake.load %arg2[%2, %135] : !cake.tensor<[B, K], f32> -> f32
        %138 = arith.mulf %cst_5, %136 : f32
        %139 = arith.subf %137, %138 : f32
        %140 = arith.index_cast %135 : index to i32
        %141 = arith.cmpf olt, %139, %125 : f32
        %142 = arith.select %141, %139, %125 : f32
        %143 = arith.select %141, %140, %126 : i32
        %144 = vector.extract %116[3] : f32 from vector<32xf32>
        %145 = cake.load %arg2[%2, %135] : !cake.tensor<[B, K], f32> -> f32
        %146 = arith.mulf %cst_5, %144 : f32
        %147 = arith.subf %145, %146 : f32
        %148 = arith.index_cast %135 : index to i32
        %149 = arith.cmpf olt, %147, %133 : f32
        %150 = arith.select %149, %147, %133 : f32
        %151 = arith.select %149, %148, %134 : i32
        %152 = arith.addi %118, %c8 : index
        %153 = vector.extract %116[4] : f32 from vector<32xf32>
        %154 = cake.load %arg2[%2, %152] : !cake.tensor<[B, K], f32> -> f32
        %155 = arith.mulf %cst_5, %153 : f32
        %156 = arith.subf %154, %155 : f32
        %157 = arith.index_cast %152 : index to i32
        %158 = arith.cmpf olt, %156, %142 : f32
        %159 = arith.select %158, %156, %142 : f32
        %160 = arith.select %158, %157, %143 : i32
        %161 = vector.extract %116[6] : f32 from vector<32xf32>
        %162 = cake.load %arg2[%2, %152] : !cake.tensor<[B, K], f32> -> f32
        %163 = arith.mulf %cst_5, %161 : f32
        %164 = arith.subf %162, %163 : f32
        %165 = arith.index_cast %152 : index to i32
        %166 = arith.cmpf olt, %164, %150 : f32
        %167 = arith.select %166, %164, %150 : f32
        %168 = arith.select %166, %165, %151 : i32
        %169 = arith.addi %118, %c9 : index
        %170 = vector.extract %116[5] : f32 from vector<32xf32>
        %171 = cake.load %arg2[%2, %169] : !cake.tensor<[B, K], f32> -> f32
        %172 = arith.mulf %cst_5, %170 : f32
        %173 = arith.subf %171, %172 : f32
        %174 = arith.index_cast %169 : index to i32
        %175 = arith.cmpf olt, %173, %159 : f32
        %176 = arith.select %175, %173, %159 : f32
        %177 = arith.select %175, %174, %160 : i32
        %178 = vector.extract %116[7] : f32 from vector<32xf32>
        %179 = cake.load %arg2[%2, %169] : !cake.tensor<[B, K], f32> -> f32
        %180 = arith.mulf %cst_5, %178 : f32
        %181 = arith.subf %179, %180 : f32
        %182 = arith.index_cast %169 : index to i32
        %183 = arith.cmpf olt, %181, %167 : f32
        %184 = arith.select %183, %181, %167 : f32
        %185 = arith.select %183, %182, %168 : i32
        %186 = arith.addi %118, %c16 : index
        %187 = vector.extract %116[8] : f32 from vector<32xf32>
        %188 = cake.load %arg2[%2, %186] : !cake.tensor<[B, K], f32> -> f32
        %189 = arith.mulf %cst_5, %187 : f32
        %190 = arith.subf %188, %189 : f32
        %191 = arith.index_cast %186 : index to i32
        %192 = arith.cmpf olt, %190, %176 : f32
        %193 = arith.select %192, %190, %176 : f32
        %194 = arith.select %192, %191, %177 : i32
        %195 = vector.extract %116[10] : f32 from vector<32xf32>
        %196 = cake.load %arg2[%2, %186] : !cake.tensor<[B, K], f32> -> f32
        %197 = arith.mulf %cst_5, %195 : f32
        %198 = arith.subf %196, %197 : f32
        %199 = arith.index_cast %186 : index to i32
        %200 = arith.cmpf olt, %198, %184 : f32
        %201 = arith.select %200, %198, %184 : f32
        %202 = arith.select %200, %199, %185 : i32
        %203 = arith.addi %118, %c17 : index
        %204 = vector.extract %116[9] : f32 from vector<32xf32>
        %205 = cake.load %arg2[%2, %203] : !cake.tensor<[B, K], f32> -> f32
        %206 = arith.mulf %cst_5, %204 : f32
        %207 = arith.subf %205, %206 : f32
        %208 = arith.index_cast %203 : index to i32
        %209 = arith.cmpf olt, %207, %193 : f32
        %210 = arith.select %209, %207, %193 : f32
        %211 = arith.select %209, %208, %194 : i32
        %212 = vector.extract %116[11] : f32 from vector<32xf32>
        %213 = cake.load %arg2[%2, %203] : !cake.tensor<[B, K], f32> -> f32
        %214 = arith.mulf %cst_5, %212 : f32
        %215 = arith.subf %213, %214 : f32
        %216 = arith.index_cast %203 : index to i32
        %217 = arith.cmpf olt, %215, %201 : f32
        %218 = arith.select %217, %215, %201 : f32
        %219 = arith.select %217, %216, %202 : i32
        %220 = arith.addi %118, %c24 : index
        %221 = vector.extract %116[12] : f32 from vector<32xf32>
        %222 = cake.load %arg2[%2, %220] : !cake.tensor<[B, K], f32> -> f32
        %223 = arith.mulf %cst_5, %221 : f32
        %224 = arith.subf %222, %223 : f32
        %225 = arith.index_cast %220 : index to i32
        %226 = arith.cmpf olt, %224, %210 : f32
        %227 = arith.select %226, %224, %210 : f32
        %228 = arith.select %226, %225, %211 : i32
        %229 = vector.extract %116[14] : f32 from vector<32xf32>
        %230 = cake.load %arg2[%2, %220] : !cake.tensor<[B, K], f32> -> f32
        %231 = arith.mulf %cst_5, %229 : f32
        %232 = arith.subf %230, %231 : f32
        %233 = arith.index_cast %220 : index to i32
        %234 = arith.cmpf olt, %232, %218 : f32
        %235 = arith.select %234, %232, %218 : f32
        %236 = arith.select %234, %233, %219 : i32
        %237 = arith.addi %118, %c25 : index
        %238 = vector.extract %116[13] : f32 from vector<32xf32>
        %239 = cake.load %arg2[%2, %237] : !cake.tensor<[B, K], f32> -> f32
        %240 = arith.mulf %cst_5, %238 : f32
        %241 = arith.subf %239, %240 : f32
        %242 = arith.index_cast %237 : index to i32
        %243 = arith.cmpf olt, %241, %227 : f32
        %244 = arith.select %243, %241, %227 : f32
        %245 = arith.select %243, %242, %228 : i32
        %246 = vector.extract %116[15] : f32 from vector<32xf32>
        %247 = cake.load %arg2[%2, %237] : !cake.tensor<[B, K], f32> -> f32
        %248 = arith.mulf %cst_5, %246 : f32
        %249 = arith.subf %247, %248 : f32
        %250 = arith.index_cast %237 : index to i32
        %251 = arith.cmpf olt, %249, %235 : f32
        %252 = arith.select %251, %249, %235 : f32
        %253 = arith.select %251, %250, %236 : i32
        %254 = arith.addi %118, %c32 : index
        %255 = vector.extract %116[16] : f32 from vector<32xf32>
        %256 = cake.load %arg2[%2, %254] : !cake.tensor<[B, K], f32> -> f32
        %257 = arith.mulf %cst_5, %255 : f32
        %258 = arith.subf %256, %257 : f32
        %259 = arith.index_cast %254 : index to i32
        %260 = arith.cmpf olt, %258, %244 : f32
        %261 = arith.select %260, %258, %244 : f32
        %262 = arith.select %260, %259, %245 : i32
        %263 = vector.extract %116[18] : f32 from vector<32xf32>
        %264 = cake.load %arg2[%2, %254] : !cake.tensor<[B, K], f32> -> f32
        %265 = arith.mulf %cst_5, %263 : f32
        %266 = arith.subf %264, %265 : f32
        %267 = arith.index_cast %254 : index to i32
        %268 = arith.cmpf olt, %266, %252 : f32
        %269 = arith.select %268, %266, %252 : f32
        %270 = arith.select %268, %267, %253 : i32
        %271 = arith.addi %118, %c33 : index
        %272 = vector.extract %116[17] : f32 from vector<32xf32>
        %273 = cake.load %arg2[%2, %271] : !cake.tensor<[B, K], f32> -> f32
        %274 = arith.mulf %cst_5, %272 : f32
        %275 = arith.subf %273, %274 : f32
        %276 = arith.index_cast %271 : index to i32
        %277 = arith.cmpf olt, %275, %261 : f32
        %278 = arith.select %277, %275, %261 : f32
        %279 = arith.select %277, %276, %262 : i32
        %280 = vector.extract %116[19] : f32 from vector<32xf32>
        %281 = cake.load %arg2[%2, %271] : !cake.tensor<[B, K], f32> -> f32
        %282 = arith.mulf %cst_5, %280 : f32
        %283 = arith.subf %281, %282 : f32
        %284 = arith.index_cast %271 : index to i32
        %285 = arith.cmpf olt, %283, %269 : f32
        %286 = arith.select %285, %283, %269 : f32
        %287 = arith.select %285, %284, %270 : i32
        %288 = arith.addi %118, %c40 : index
        %289 = vector.extract %116[20] : f32 from vector<32xf32>
        %290 = cake.load %arg2[%2, %288] : !cake.tensor<[B, K], f32> -> f32
        %291 = arith.mulf %cst_5, %289 : f32
        %292 = arith.subf %290, %291 : f32
        %293 = arith.index_cast %288 : index to i32
        %294 = arith.cmpf olt, %292, %278 : f32
        %295 = arith.select %294, %292, %278 : f32
        %296 = arith.select %294, %293, %279 : i32
        %297 = vector.extract %116[22] : f32 from vector<32xf32>
        %298 = cake.load %arg2[%2, %288] : !cake.tensor<[B, K], f32> -> f32
        %299 = arith.mulf %cst_5, %297 : f32
        %300 = arith.subf %298, %299 : f32
        %301 = arith.index_cast %288 : index to i32
        %302 = arith.cmpf olt, %300, %286 : f32
        %303 = arith.select %302, %300, %286 : f32
        %304 = arith.select %302, %301, %287 : i32
        %305 = arith.addi %118, %c41 : index
        %306 = vector.extract %116[21] : f32 from vector<32xf32>
        %307 = cake.load %arg2[%2, %305] : !cake.tensor<[B, K], f32> -> f32
        %308 = arith.mulf %cst_5, %306 : f32
        %309 = arith.subf %307, %308 : f32
        %310 = arith.index_cast %305 : index to i32
        %311 = arith.cmpf olt, %309, %295 : f32
        %312 = arith.select %311, %309, %295 : f32
        %313 = arith.select %311, %310, %296 : i32
        %314 = vector.extract %116[23] : f32 from vector<32xf32>
        %315 = cake.load %arg2[%2, %305] : !cake.tensor<[B, K], f32> -> f32
        %316 = arith.mulf %cst_5, %314 : f32
        %317 = arith.subf %315, %316 : f32
        %318 = arith.index_cast %305 : index to i32
        %319 = arith.cmpf olt, %317, %303 : f32
        %320 = arith.select %319, %317, %303 : f32
        %321 = arith.select %319, %318, %304 : i32
        %322 = arith.addi %118, %c48 : index
        %323 = vector.extract %116[24] : f32 from vector<32xf32>
        %324 = cake.load %arg2[%2, %322] : !cake.tensor<[B, K], f32> -> f32
        %325 = arith.mulf %cst_5, %323 : f32
        %326 = arith.subf %324, %325 : f32
        %327 = arith.index_cast %322 : index to i32
        %328 = arith.cmpf olt, %326, %312 : f32
        %329 = arith.select %328, %326, %312 : f32
        %330 = arith.select %328, %327, %313 : i32
        %331 = vector.extract %116[26] : f32 from vector<32xf32>
        %332 = cake.load %arg2[%2, %322] : !cake.tensor<[B, K], f32> -> f32
        %333 = arith.mulf %cst_5, %331 : f32
        %334 = arith.subf %332, %333 : f32
        %335 = arith.index_cast %322 : index to i32
        %336 = arith.cmpf olt, %334, %320 : f32
        %337 = arith.select %336, %334, %320 : f32
        %338 = arith.select %336, %335, %321 : i32
        %339 = arith.addi %118, %c49 : index
        %340 = vector.extract %116[25] : f32 from vector<32xf32>
        %341 = cake.load %arg2[%2, %339] : !cake.tensor<[B, K], f32> -> f32
        %342 = arith.mulf %cst_5, %340 : f32
        %343 = arith.subf %341, %342 : f32
        %344 = arith.index_cast %339 : index to i32
        %345 = arith.cmpf olt, %343, %329 : f32
        %346 = arith.select %345, %343, %329 : f32
        %347 = arith.select %345, %344, %330 : i32
        %348 = vector.extract %116[27] : f32 from vector<32xf32>
        %349 = cake.load %arg2[%2, %339] : !cake.tensor<[B, K], f32> -> f32
        %350 = arith.mulf %cst_5, %348 : f32
        %351 = arith.subf %349, %350 : f32
        %352 = arith.index_cast %339 : index to i32
        %353 = arith.cmpf olt, %351, %337 : f32
        %354 = arith.select %353, %351, %337 : f32
        %355 = arith.select %353, %352, %338 : i32
        %356 = arith.addi %118, %c56 : index
        %357 = vector.extract %116[28] : f32 from vector<32xf32>
        %358 = cake.load %arg2[%2, %356] : !cake.tensor<[B, K], f32> -> f32
        %359 = arith.mulf %cst_5, %357 : f32
        %360 = arith.subf %358, %359 : f32
        %361 = arith.index_cast %356 : index to i32
        %362 = arith.cmpf olt, %360, %346 : f32
        %363 = arith.select %362, %360, %346 : f32
        %364 = arith.select %362, %361, %347 : i32
        %365 = vector.extract %116[30] : f32 from vector<32xf32>
        %366 = cake.load %arg2[%2, %356] : !cake.tensor<[B, K], f32> -> f32
        %367 = arith.mulf %cst_5, %365 : f32
        %368 = arith.subf %366, %367 : f32
        %369 = arith.index_cast %356 : index to i32
        %370 = arith.cmpf olt, %368, %354 : f32
        %371 = arith.select %370, %368, %354 : f32
        %372 = arith.select %370, %369, %355 : i32
        %373 = arith.addi %118, %c57 : index
        %374 = vector.extract %116[29] : f32 from vector<32xf32>
        %375 = cake.load %arg2[%2, %373] : !cake.tensor<[B, K], f32> -> f32
        %376 = arith.mulf %cst_5, %374 : f32
        %377 = arith.subf %375, %376 : f32
        %378 = arith.index_cast %373 : index to i32
        %379 = arith.cmpf olt, %377, %363 : f32
        %380 = arith.select %379, %377, %363 : f32
        %381 = arith.select %379, %378, %364 : i32
        %382 = vector.extract %116[31] : f32 from vector<32xf32>
        %383 = cake.load %arg2[%2, %373] : !cake.tensor<[B, K], f32> -> f32
        %384 = arith.mulf %cst_5, %382 : f32
        %385 = arith.subf %383, %384 : f32
        %386 = arith.index_cast %373 : index to i32
        %387 = arith.cmpf olt, %385, %371 : f32
        %388 = arith.select %387, %385, %371 : f32
        %389 = arith.select %387, %386, %372 : i32
        scf.yield %380, %381, %388, %389 : f32, i32, f32, i32
      } else {
        %cst_8 = arith.constant dense<0.000000e+00> : vector<32xf32>
        cake.wgmma.fence
        %109 = cake.wgmma.regs %21, %92[%c0, %c0, %c0], %cst_8 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %110 = cake.wgmma.regs %31, %92[%c0, %c0, %c16], %109 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %111 = cake.wgmma.regs %41, %92[%c0, %c0, %c32], %110 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %112 = cake.wgmma.regs %51, %92[%c0, %c0, %c48], %111 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %113 = cake.wgmma.regs %61, %92[%c1, %c0, %c0], %112 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %114 = cake.wgmma.regs %71, %92[%c1, %c0, %c16], %113 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %115 = cake.wgmma.regs %81, %92[%c1, %c0, %c32], %114 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        %116 = cake.wgmma.regs %91, %92[%c1, %c0, %c48], %115 : vector<8xf16>, !cake.smem<2x64x64xf16, swizzle = 128>, vector<32xf32>
        cake.wgmma.commit
        cake.wgmma.wait 0
        %117 = arith.muli %9, %c2 : index
        %118 = arith.addi %arg4, %117 : index
        %119 = arith.cmpi ult, %118, %0 : index
        %120:4 = scf.if %119 -> (f32, i32, f32, i32) {
          %166 = vector.extract %116[0] : f32 from vector<32xf32>
          %167 = cake.load %arg2[%2, %118] : !cake.tensor<[B, K], f32> -> f32
          %168 = arith.mulf %cst_5, %166 : f32
          %169 = arith.subf %167, %168 : f32
          %170 = arith.index_cast %118 : index to i32
          %171 = arith.cmpf olt, %169, %arg5 : f32
          %172 = arith.select %171, %169, %arg5 : f32
          %173 = arith.select %171, %170, %arg6 : i32
          %174 = vector.extract %116[2] : f32 from vector<32xf32>
          %175 = cake.load %arg2[%2, %118] : !cake.tensor<[B, K], f32> -> f32
          %176 = arith.mulf %cst_5, %174 : f32
          %177 = arith.subf %175, %176 : f32
          %178 = arith.index_cast %118 : index to i32
          %179 = arith.cmpf olt, %177, %arg7 : f32
          %180 = arith.select %179, %177, %arg7 : f32
          %181 = arith.select %179, %178, %arg8 : i32
          scf.yield %172, %173, %180, %181 : f32, i32, f32, i32
        } else {
          scf.yield %arg5, %arg6, %arg7, %arg8 : f32, i32, f32, i32
        }
        %121 = arith.addi %118, %c1 : index
        %122 = arith.cmpi ult, %121, %0 : index
        %123:4 = scf.if %122 -> (f32, i32, f32, i32) {
          %166 = vector.extract %116[1] : f32 from vector<32xf32>
          %167 = cake.load %arg2[%2, %121] : !cake.tensor<[B, K], f32> -> f32
          %168 = arith.mulf %cst_5, %166 : f32
          %169 = arith.subf %167, %168 : f32
          %170 = arith.index_cast %121 : index to i32
          %171 = arith.cmpf olt, %169, %120#0 : f32
          %172 = arith.select %171, %169, %120#0 : f32
          %173 = arith.select %171, %170, %120#1 : i32
          %174 = vector.extract %116[3] : f32 from vector<32xf32>
          %175 = cake.load %arg2[%2, %121] : !cake.tensor<[B, K], f32> -> f32
          %176 = arith.mulf %cst_5, %174 : f32
          %177 = arith.subf %175, %176 : f32
          %178 = arith.index_cast %121 : index to i32
          %179 = arith.cmpf olt, %177, %120#2 : f32
          %180 = arith.select %179, %177, %120#2 : f32
          %181 = arith.select %179, %178, %120#3 : i32
          scf.yield %172, %173, %180, %181 : f32, i32, f32, i32
        } else {
          scf.yield %120#0, %120#1, %120#2, %120#3 : f32, i32, f32, i32
        }
        %124 = arith.addi %118, %c8 : index
        %125 = arith.cmpi ult, %124, %0 : index
        %126:4 = scf.if %125 -> (f32, i32, f32, i32) {
          %166 = vector.extract %116[4] : f32 from vector<32xf32>
          %167 = cake.load %arg2[%2, %124] : !cake.tensor<[B, K], f32> -> f32
          %168 = arith.mulf %cst_5, %166 : f32
          %169 = arith.subf %167, %168 : f32
          %170 = arith.index_cast %124 : index to i32
          %171 = arith.cmpf olt, %169, %123#0 : f32
          %172 = arith.select %171, %169, %123#0 : f32
          %173 = arith.select %171, %170, %123#1 : i32
          %174 = vector.extract %116[6] : f32 from vector<32xf32>
          %175 = cake.load %arg2[%2, %124] : !cake.tensor<[B, K], f32> -> f32
          %176 = arith.mulf %cst_5, %174 : f32
          %177 = arith.subf %175, %176 : f32
          %178 = arith.index_cast %124 : index to i32
          %179 = arith.cmpf olt, %177, %123#2 : f32
          %180 = arith.select %179, %177, %123#2 : f32
          %181 = arith.select %179, %178, %123#3 : i32
          scf.yield %172, %173, %180, %181 : f32, i32, f32, i32
        } else {
          scf.yield %123#0, %123#1, %123#2, %123#3 : f32, i32, f32, i32
        }
        %127 = arith.addi %118, %c9 : index
        %128 = arith.cmpi ult, %127, %0 : index
        %129:4 = scf.if %128 -> (f32, i32, f32, i32) {
          %166 = vector.extract %116[5] : f32 from vector<32xf32>
          %167 = cake.load %arg2[%2, %127] : !cake.tensor<[B, K], f32> -> f32
          %168 = arith.mulf %cst_5, %166 : f32
          %169 = arith.subf %167, %168 : f32
          %170 = arith.index_cast %127 : index to i32
          %171 = arith.cmpf olt, %169, %126#0 : f32
          %172 = arith.select %171, %169, %126#0 : f32
          %173 = arith.select %171, %170, %126#1 : i32
          %174 = vector.extract %116[7] : f32 from vector<32xf32>
          %175 = cake.load %arg2[%2, %127] : !cake.tensor<[B, K], f32> -> f32
          %176 = arith.mulf %cst_5, %174 : f32
          %177 = arith.subf %175, %176 : f32
          %178 = arith.index_cast %127 : index to i32
          %179 = arith.cmpf olt, %177, %126#2 : f32
          %180 = arith.select %179, %177, %126#2 : f32
          %181 = arith.select %179, %178, %126#3 : i32
          scf.yield %172, %173, %180, %181 : f32, i32, f32, i32
        } else {
          scf.yield %126#0, %126#1, %126#2, %126#3 : f32, i32, f32, i32
        }
        %130 = arith.addi %118, %c16 : index
        %131 = arith.cmpi ult, %130, %0 : index
        %132:4 = scf.if %131 -> (f32, i32, f32, i32) {
          %166 = vector.extract %116[8] : f32 from vector<32xf32>
          %167 = cake.load %arg2[%2, %130] : !cake.tensor<[B, K], f32> -> f32
          %168 = arith.mulf %cst_5, %166 : f32
          %169 = arith.subf %167, %168 : f32
          %170 = arith.index_cast %130 : index to i32
          %171 = arith.cmpf olt, %169, %129#0 : f32
          %172 = arith.select %171, %169, %129#0 : f32
          %173 = arith.select %171, %170, %129#1 : i32
          %174 = vector.extract %116[10] : f32 from vector<32xf32>
          %175 = cake.load %arg2[%2, %130] : !cake.tensor<[B, K], f32> -> f32
          %176 = arith.mulf %cst_5, %174 : f32
          %177 = arith.subf %175, %176 : f32
          %178 = arith.index_cast %130 : index to i32
          %179 = arith.cmpf olt, %177, %129#2 : f32
          %180 = arith.select %179, %177, %129#2 : f32
          %181 = arith.select %179, %178, %129#3 : i32
          scf.yield %172, %173, %180, %181 : f32, i32, f32, i32
        } else {
          scf.yield %129#0, %129#1, %129#2, %129#3 : f32, i32, f32, i32
        }
        %133 = arith.addi %118, %c17 : index
        %134 = arith.cmpi ult, %133, %0 : index
        %135:4 = scf.if %134 -> (f32, i32, f32, i32) {
          %166 = vector.extract %116[9] : f32 from vector<32xf32>
          %167 = cake.load %arg2[%2, %133] : !cake.tensor<[B, K], f32> -> f32
          %168 = arith.mulf %cst_5, %166 : f32
          %169 = arith.subf %167, %168 : f32
          %170 = arith.index_cast %133 : index to i32
          %171 = arith.cmpf olt, %169, %132#0 : f32
          %172 = arith.select %171, %169, %132#0 : f32
          %173 = arith.select %171, %170, %132#1 : i32
          %174 = vector.extract %116[11] : f32 from vector<32xf32>
          %175 = cake.load %arg2[%2, %133] : !cake.tensor<[B, K], f32> -> f32
          %176 = arith.mulf %cst_5, %174 : f32
          %177 = arith.subf %175, %176 : f32
          %178 = arith.index_cast %133 : index to i32
          %179 = arith.cmpf olt, %177, %132#2 : f32
          %180 = arith.select %179, %177, %132#2 : f32
          %181 = arith.select %179, %178, %132#3 : i32
          scf.yield %172, %173, %180, %181 : f32, i32, f32, i32
        } else {
          scf.yield %132#0, %132#1, %132#2, %132#3 : f32, i32, f32, i32
        }
        %136 = arith.addi %118, %c24 : index
        %137 = arith.cmpi ult, %136, %0 : index
        %138:4 = scf.if %137 -> (f32, i32, f32, i32) {
          %166 = vector.extract %116[12] : f32 from vector<32xf32>
          %167 = cake.load %arg2[%2, %136] : !cake.tensor<[B, K], f32> -> f32
          %168 = arith.mulf %cst_5, %166 : f32
          %169 = arith.subf %167, %168 : f32
          %170 = arith.index_cast %136 : index to i32
          %171 = arith.cmpf olt, %169, %135#0 : f32
          %172 = arith.select %171, %169, %135#0 : f32
          %173 = arith.select %171, %170, %135#1 : i32
          %174 = vector.extract %116[14] : f32 from vector<32xf32>
          %175 = cake.load %arg2[%2, %136] : !cake.tensor<[B, K], f32> -> f32
          %176 = arith.mulf %cst_5, %174 : f32
          %177 = arith.subf %175, %176 : f32
          %178 = arith.index_cast %136 : index to i32
          %179 = arith.cmpf olt, %177, %135#2 : f32
          %180 = arith.select %179, %177, %135#2 : f32
          %181 = arith.select %179, %178, %135#3 : i32
          scf.yield %172, %173, %180, %181 : f32, i32, f32, i32
        } else {
          scf.yield %135#0, %135#1, %135#2, %135#3 : f32, i32, f32, i32
        }
        %139 = arith.addi %118, %c25 : index
        %140 = arith.cmpi ult, %139, %0 : index
        %141:4 = scf.if %140 -> (f32, i32, f32, i32) {
          %166 = vector.extract %116[13] : f32 from vector<32xf32>
          %167 = cake.load %arg2[%2, %139] : !cake.tensor<[B, K], f32> -> f32
          %168 = arith.mulf %cst_5, %166 : f32
          %169 = arith.subf %167, %168 : f32
          %170 = arith.index_cast %139 : index to i32
          %171 = arith.cmpf olt, %169, %138#0 : f32
          %172 = arith.select %171, %169, %138#0 : f32
          %173 = arith.select %171, %170, %138#1 : i32
          %174 = vector.extract %116[15] : f32 from vector<32xf32>
          %175 = cake.load %arg2[%2, %139] : !cake.tensor<[B, K], f32> -> f32
          %176 = arith.mulf %cst_5, %174 : f32
          %177 = arith.subf %175, %176 : f32
          %178 = arith.index_cast %139 : index to i32
          %179 = arith.cmpf olt, %177, %138#2 : f32
          %180 = arith.select %179, %177, %138#2 : f32
          %181 = arith.select %179, %178, %138#3 : i32
          scf.yield %172, %173, %180, %181 : f32, i32, f32, i32
        } else {
          scf.yield %138#0, %138#1, %138#2, %138#3 : f32, i32, f32, i32
        }
        %142 = arith.addi %118, %c32 : index
        %143 = arith.cmpi ult, %142, %0 : index
        %144:4 = scf.if %143 -> (f32, i32, f32, i32) {
          %166 = vector.extract %116[16] : f32 from vector<32xf32>
          %167 = cake.load %arg2[%2, %142] : !cake.tensor<[B, K], f32> -> f32
          %168 = arith.mulf %cst_5, %166 : f32
          %169 = arith.subf %167, %168 : f32
          %170 = arith.index_cast %142 : index to i32
          %171 = arith.cmpf olt, %169, %141#0 : f32
          %172 = arith.select %171, %169, %141#0 : f32
          %173 = arith.select %171, %170, %141#1 : i32
          %174 = vector.extract %116[18] : f32 from vector<32xf32>
          %175 = cake.load %arg2[%2, %142] : !cake.tensor<[B, K], f32> -> f32
          %176 = arith.mulf %cst_5, %174 : f32
          %177 = arith.subf %175, %176 : f32
          %178 = arith.index_cast %142 : index to i32
          %179 = arith.cmpf olt, %177, %141#2 : f32
          %180 = arith.select %179, %177, %141#2 : f32
          %181 = arith.select %179, %178, %141#3 : i32
          scf.yield %172, %173, %180, %181 : f32, i32, f32, i32
        } else {
          scf.yield %141#0, %141#1, %141#2, %141#3 : f32, i32, f32, i32
        }
        %145 = arith.addi %118, %c33 : index
        %146 = arith.cmpi ult, %145, %0 : index
        %147:4 = scf.if %146 -> (f32, i32, f32, i32) {
          %166 = vector.extract %116[17] : f32 from vector<32xf32>
          %167 = cake.load %arg2[%2, %145] : !cake.tensor<[B, K], f32> -> f32
          %168 = arith.mulf %cst_5, %166 : f32
          %169 = arith.subf %167, %168 : f32
          %170 = arith.index_cast %145 : index to i32
          %171 = arith.cmpf olt, %169, %144#0 : f32
          %172 = arith.select %171, %169, %144#0 : f32
          %173 = arith.select %171, %170, %144#1 : i32
          %174 = vector.extract %116[19] : f32 from vector<32xf32>
          %175 = cake.load %arg2[%2, %145] : !cake.tensor<[B, K], f32> -> f32
          %176 = arith.mulf %cst_5, %174 : f32
          %177 = arith.subf %175, %176 : f32
          %178 = arith.index_cast %145 : index to i32
          %179 = arith.cmpf olt, %177, %144#2 : f32
          %180 = arith.select %179, %177, %144#2 : f32
          %181 = arith.select %179, %178, %144#3 : i32
          scf.yield %172, %173, %180, %181 : f32, i32, f32, i32
        } else {
          scf.yield %144#0, %144#1, %144#2, %144#3 : f32, i32, f32, i32
        }
        %148 = arith.addi %118, %c40 : index
        %149 = arith.cmpi ult, %148, %0 : index
        %150:4 = scf.if %149 -> (f32, i32, f32, i32) {
          %166 = vector.extract %116[20] : f32 from vector<32xf32>
          %167 = cake.load %arg2[%2, %148] : !cake.tensor<[B, K], f32> -> f32
          %168 = arith.mulf %cst_5, %166 : f32
          %169 = arith.subf %167, %168 : f32
          %170 = arith.index_cast %148 : index to i32
          %171 = arith.cmpf olt, %169, %147#0 : f32
          %172 = arith.select %171, %169, %147#0 : f32
          %173 = arith.select %171, %170, %147#1 : i32
          %174 = vector.extract %116[22] : f32 from vector<32xf32>
          %175 = cake.load %arg2[%2, %148] : !cake.tensor<[B, K], f32> -> f32
          %176 = arith.mulf %cst_5, %174 : f32
          %177 = arith.subf %175, %176 : f32
          %178 = arith.index_cast %148 : index to i32
          %179 = arith.cmpf olt, %177, %147#2 : f32
          %180 = arith.select %179, %177, %147#2 : f32
          %181 = arith.select %179, %178, %147#3 : i32
          scf.yield %172, %173, %180, %181 : f32, i32, f32, i32
        } else {
          scf.yield %147#0, %147#1, %147#2, %147#3 : f32, i32, f32, i32
        }
        %151 = arith.addi %118, %c41 : index
        %152 = arith.cmpi ult, %151, %0 : index
        %153:4 = scf.if %152 -> (f32, i32, f32, i32) {
          %166 = vector.extract %116[21] : f32 from vector<32xf32>
          %167 = cake.load %arg2[%2, %151] : !cake.tensor<[B, K], f32> -> f32
          %168 = arith.mulf %cst_5, %166 : f32
          %169 = arith.subf %167, %168 : f32
          %170 = arith.index_cast %151 : index to i32
          %171 = arith.cmpf olt, %169, %150#0 : f32
          %172 = arith.select %171, %169, %150#0 : f32
          %173 = arith.select %171, %170, %150#1 : i32
          %174 = vector.extract %116[23] : f32 from vector<32xf32>
          %175 = cake.load %arg2[%2, %151] : !cake.tensor<[B, K], f32> -> f32
          %176 = arith.mulf %cst_5, %174 : f32
          %177 = arith.subf %175, %176 : f32
          %178 = arith.index_cast %151 : index to i32
          %179 = arith.cmpf olt, %177, %150#2 : f32
          %180 = arith.select %179, %177, %150#2 : f32
          %181 = arith.select %179, %178, %150#3 : i32
          scf.yield %172, %173, %180, %181 : f32, i32, f32, i32
        } else {
          scf.yield %150#0, %150#1, %150#2, %150#3 : f32, i32, f32, i32
        }
        %154 = arith.addi %118, %c48 : index
        %155 = arith.cmpi ult, %154, %0 : index
        %156:4 = scf.if %155 -> (f32, i32, f32, i32) {
          %166 = vector.extract %116[24] : f32 from vector<32xf32>
          %167 = cake.load %arg2[%2, %154] : !cake.tensor<[B, K], f32> -> f32
          %168 = arith.mulf %cst_5, %166 : f32
          %169 = arith.subf %167, %168 : f32
          %170 = arith.index_cast %154 : index to i32
          %171 = arith.cmpf olt, %169, %153#0 : f32
          %172 = arith.select %171, %169, %153#0 : f32
          %173 = arith.select %171, %170, %153#1 : i32
          %174 = vector.extract %116[26] : f32 from vector<32xf32>
          %175 = cake.load %arg2[%2, %154] : !cake.tensor<[B, K], f32> -> f32
          %176 = arith.mulf %cst_5, %174 : f32
          %177 = arith.subf %175, %176 : f32
          %178 = arith.index_cast %154 : index to i32
          %179 = arith.cmpf olt, %177, %153#2 : f32
          %180 = arith.select %179, %177, %153#2 : f32
          %181 = arith.select %179, %178, %153#3 : i32
          scf.yield %172, %173, %180, %181 : f32, i32, f32, i32
        } else {
          scf.yield %153#0, %153#1, %153#2, %153#3 : f32, i32, f32, i32
        }
        %157 = arith.addi %118, %c49 : index
        %158 = arith.cmpi ult, %157, %0 : index
        %159:4 = scf.if %158 -> (f32, i32, f32, i32) {
          %166 = vector.extract %116[25] : f32 from vector<32xf32>
          %167 = cake.load %arg2[%2, %157] : !cake.tensor<[B, K], f32> -> f32
          %168 = arith.mulf %cst_5, %166 : f32
          %169 = arith.subf %167, %168 : f32
          %170 = arith.index_cast %157 : index to i32
          %171 = arith.cmpf olt, %169, %156#0 : f32
          %172 = arith.select %171, %169, %156#0 : f32
          %173 = arith.select %171, %170, %156#1 : i32
          %174 = vector.extract %116[27] : f32 from vector<32xf32>
          %175 = cake.load %arg2[%2, %157] : !cake.tensor<[B, K], f32> -> f32
          %176 = arith.mulf %cst_5, %174 : f32
          %177 = arith.subf %175, %176 : f32
          %178 = arith.index_cast %157 : index to i32
          %179 = arith.cmpf olt, %177, %156#2 : f32
          %180 = arith.select %179, %177, %156#2 : f32
          %181 = arith.select %179, %178, %156#3 : i32
          scf.yield %172, %173, %180, %181 : f32, i32, f32, i32
        } else {
          scf.yield %156#0, %156#1, %156#2, %156#3 : f32, i32, f32, i32
        }
        %160 = arith.addi %118, %c56 : index
        %161 = arith.cmpi ult, %160, %0 : index
        %162:4 = scf.if %161 -> (f32, i32, f32, i32) {
          %166 = vector.extract %116[28] : f32 from vector<32xf32>
          %167 = cake.load %arg2[%2, %160] : !cake.tensor<[B, K], f32> -> f32
          %168 = arith.mulf %cst_5, %166 : f32
          %169 = arith.subf %167, %168 : f32
          %170 = arith.index_cast %160 : index to i32
          %171 = arith.cmpf olt, %169, %159#0 : f32
          %172 = arith.select %171, %169, %159#0 : f32
          %173 = arith.select %171, %170, %159#1 : i32
          %174 = vector.extract %116[30] : f32 from vector<32xf32>
          %175 = cake.load %arg2[%2, %160] : !cake.tensor<[B, K], f32> -> f32
          %176 = arith.mulf %cst_5, %174 : f32
          %177 = arith.subf %175, %176 : f32
          %178 = arith.index_cast %160 : index to i32
          %179 = arith.cmpf olt, %177, %159#2 : f32
          %180 = arith.select %179, %177, %159#2 : f32
          %181 = arith.select %179, %178, %159#3 : i32
          scf.yield %172, %173, %180, %181 : f32, i32, f32, i32
        } else {
          scf.yield %159#0, %159#1, %159#2, %159#3 : f32, i32, f32, i32
        }
        %163 = arith.addi %118, %c57 : index
        %164 = arith.cmpi ult, %163, %0 : index
        %165:4 = scf.if %164 -> (f32, i32, f32, i32) {
          %166 = vector.extract %116[29] : f32 from vector<32xf32>
          %167 = cake.load %arg2[%2, %163] : !cake.tensor<[B, K], f32> -> f32
          %168 = arith.mulf %cst_5, %166 : f32
          %169 = arith.subf %167, %168 : f32
          %170 = arith.index_cast %163 : index to i32
          %171 = arith.cmpf olt, %169, %162#0 : f32
          %172 = arith.select %171, %169, %162#0 : f32
          %173 = arith.select %171, %170, %162#1 : i32
          %174 = vector.extract %116[31] : f32 from vector<32xf32>
          %175 = cake.load %arg2[%2, %163] : !cake.tensor<[B, K], f32> -> f32
          %176 = arith.mulf %cst_5, %174 : f32
          %177 = arith.subf %175, %176 : f32
          %178 = arith.index_cast %163 : index to i32
          %179 = arith.cmpf olt, %177, %162#2 : f32
          %180 = arith.select %179, %177, %162#2 : f32
          %181 = arith.select %179, %178, %162#3 : i32
          scf.yield %172, %173, %180, %181 : f32, i32, f32, i32
        } else {
          scf.yield %162#0, %162#1, %162#2, %162#3 : f32, i32, f32, i32
        }
        scf.yield %165#0, %165#1, %165#2, %165#3 : f32, i32, f32, i32
      }
      cake.barrier
      scf.yield %108#0, %108#1, %108#2, %108#3, %106 : f32, i32, f32, i32, vector<8xf16>
    }
    %result_value, %result_index = cake.warp_arg_reduce  argmin %99#0, %99#1 {lanes = 4 : i64} : f32, i32
    %100 = arith.cmpi eq, %9, %c0_0 : index
    scf.if %100 {
      cake.store %result_index, %arg3[%2, %11] masked : i32, !cake.tensor<[B, N], i32>
    }
    %result_value_6, %result_index_7 = cake.warp_arg_reduce  argmin %99#2, %99#3 {lanes = 4 : i64} : f32, i32
    %101 = arith.cmpi eq, %9, %c0_0 : index
    scf.if %101 {
      cake.store %result_index_7, %arg3[%2, %12] masked : i32, !cake.tensor<[B, N], i32>
    }
    cake.return
  }
}

