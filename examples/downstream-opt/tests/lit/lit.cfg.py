# -*- Python -*-
# lit configuration of example-opt's FileCheck tests; `cargo test` runs them
# through tests/lit.rs, which passes the tool paths as parameters:
#   lit -sv tests/lit --param example_opt=PATH [--param llvm_tools_dir=DIR]
import os

import lit.formats

config.name = "example-opt"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir"]
config.excludes = ["lit.cfg.py"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = lit_config.params.get("exec_root", os.path.join(config.test_source_root, "Output"))

example_opt = lit_config.params.get("example_opt")
if not example_opt:
    lit_config.fatal("pass --param example_opt=PATH (cargo test does)")
llvm_tools_dir = lit_config.params.get("llvm_tools_dir", "/usr/lib/llvm-22/bin")

config.substitutions.append(("example-opt", example_opt))
for tool in ["FileCheck", "not"]:
    config.substitutions.append((r"\b%s\b" % tool, os.path.join(llvm_tools_dir, tool)))
