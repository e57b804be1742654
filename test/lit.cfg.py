# -*- Python -*-
# lit configuration for CAKE's tests (test/) and examples (examples/, via examples/lit.cfg.py).
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "CAKE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Unit", "Inputs", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs"]
if not hasattr(config, "test_source_root") or config.test_source_root is None:
    config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.cake_obj_root, os.path.basename(config.test_source_root))

llvm_config.use_default_substitutions()
config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%cake_src", config.cake_src_root))
config.substitutions.append(("%cake_obj", config.cake_obj_root))
config.substitutions.append(("%cake_examples", os.path.join(config.cake_src_root, "examples")))
# MLIR's .td files, for the tests that run mlir-tblgen on tactic records.
config.substitutions.append(("%mlir_include", os.path.join(config.llvm_tools_dir, "..", "include")))

tool_dirs = [config.cake_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["cake-opt", "cake-translate", "mlir-tblgen"], tool_dirs)
if os.path.exists(os.path.join(config.cake_tools_dir, "cake-run")):
    config.available_features.add("cake-run")
    llvm_config.add_tool_substitutions(["cake-run"], tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.cake_tools_dir, append_path=True)
# ptxas for the assembly tests; tests that need it say `REQUIRES: ptxas`.
for var in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
import shutil
if config.cake_ptxas:
    config.available_features.add("ptxas")
    config.environment["CUDA_HOME"] = os.path.dirname(os.path.dirname(config.cake_ptxas))
# cuobjdump (beside ptxas, on PATH or CAKE_CUOBJDUMP) for the SASS checks: `%if cuobjdump %{...%}`.
_cuobjdump = os.environ.get("CAKE_CUOBJDUMP") or shutil.which("cuobjdump") or (
    config.cake_ptxas and os.path.join(os.path.dirname(config.cake_ptxas), "cuobjdump"))
if _cuobjdump and os.access(_cuobjdump, os.X_OK):
    config.available_features.add("cuobjdump")
    config.substitutions.append(("%cuobjdump", _cuobjdump))

# The embedding routes (test/CAPI, Plugin, LSP, Python, Install): facts from test/CMakeLists.txt.
import json

llvm_config.add_tool_substitutions(["cake-capi-test", "cake-lsp-server"], tool_dirs)
embedding_cfg = os.path.join(config.cake_obj_root, "test", "embedding.cfg.json")
if os.path.exists(embedding_cfg):
    with open(embedding_cfg) as f:
        embedding = json.load(f)
    config.substitutions.append(("%cake_plugin", embedding["plugin"]))
    config.substitutions.append(("%cake_cxx", embedding["cxx_compiler"]))
    config.substitutions.append(("%cake_cc", embedding["c_compiler"]))
    upstream_opt = os.path.join(config.llvm_tools_dir, "mlir-opt")
    if os.path.exists(upstream_opt):
        config.available_features.add("upstream-mlir-opt")
        config.substitutions.append(("%upstream_mlir_opt", upstream_opt))
    if embedding["python"]:
        config.available_features.add("python-bindings")
        config.substitutions.append(("%cake_python", embedding["python"]))
        config.substitutions.append(("%cake_pypackages", embedding["python_packages"]))
        # pip installs python_packages as a package (test/Python/pip-install.test).
        import subprocess
        if subprocess.run([embedding["python"], "-c", "import pip"], capture_output=True).returncode == 0:
            config.available_features.add("python-pip")
    # cake-fuzz (tools/cake-fuzz), only when CAKE_ENABLE_FUZZER built it.
    if embedding.get("fuzzer") and os.path.exists(embedding["fuzzer"]):
        config.available_features.add("libfuzzer")
        config.substitutions.append(("%cake_fuzz", embedding["fuzzer"]))
    if shutil.which("cmake") and shutil.which("ninja"):
        config.available_features.add("cmake-ninja")
