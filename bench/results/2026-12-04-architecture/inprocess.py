"""10 candidates in one process through the Python bindings (one Context): verify (with every
cake-verify rule), cost and compile to a cubin, as the subprocess path does."""
import sys
sys.path.insert(0, "/work/main/build/python_packages")
import cake
text = open("/work/main/examples/hopper_gemm.mlir").read()
with cake.Context() as ctx:
    for _ in range(10):
        module = ctx.parse(text, "hopper_gemm.mlir")
        assert ctx.verify(module) == []
        ctx.cost(module, {"M": 4096, "N": 4096, "K": 4096})
        ptx, cubin, manifest = ctx.compile(module)
        assert cubin and manifest
