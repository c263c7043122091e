# -*- Python -*-
# LLVM lit configuration for rxla's FileCheck tests.
#
#   cargo build                             # builds target/debug/hlo-opt
#   /usr/lib/llvm-22/bin/lit -sv test/      # from the repository root
#
# The same tests also run under `cargo test -p rxla-opt --test lit`
# (opt-tool/tests/lit.rs). Keep the tool table and the feature names below in
# sync with `tools()` / `available_features()` there. See test/README.md.

import os
import platform
import re
import sys

import lit.formats

config.name = "rxla"

# RUN lines go to bash with pipefail, exactly as in opt-tool/tests/lit.rs, so
# a test that passes under one runner passes under the other.
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".hlo"]
# test/oracle, test/models, test/linalg and test/sharded hold the conformance, real-model,
# linear-algebra and sharded corpora (run by the Rust tests and check.py), not lit tests.
config.excludes = ["lit.cfg.py", "README.md", "Output", "oracle", "models", "linalg", "sharded"]

config.test_source_root = os.path.dirname(os.path.abspath(__file__))
repo_root = os.path.dirname(config.test_source_root)

# Where the rxla binaries are: $RXLA_BIN_DIR, else the cargo debug build.
bin_dir = os.environ.get("RXLA_BIN_DIR") or os.path.join(repo_root, "target", "debug")
bin_dir = os.path.abspath(bin_dir)
llvm_tools_dir = os.environ.get("LLVM_TOOLS_DIR") or "/usr/lib/llvm-22/bin"

# Output/ directories (and so %t) go under the build directory, not test/.
config.test_exec_root = os.environ.get("RXLA_LIT_EXEC_ROOT") or os.path.join(
    repo_root, "target", "lit"
)

# ---------------------------------------------------------------------------
# Tool table: name in RUN lines -> executable. Add new rxla binaries (e.g.
# "hlo-run") to rxla_tools.
# ---------------------------------------------------------------------------
rxla_tools = ["hlo-opt", "hlo-run"]
llvm_tools = ["FileCheck", "count", "not"]

tools = {name: os.path.join(bin_dir, name) for name in rxla_tools}
tools.update({name: os.path.join(llvm_tools_dir, name) for name in llvm_tools})

for name, path in sorted(tools.items()):
    if not os.path.exists(path):
        lit_config.warning(
            "rxla: %s not found at %s%s"
            % (
                name,
                path,
                " (run `cargo build` first or set RXLA_BIN_DIR)" if name in rxla_tools else "",
            )
        )

# A tool name is replaced only where a command starts: at the start of the RUN
# line, after `|`, `||`, `&&`, `;`, `(`, or after such a `not [--crash]`; and
# only as a whole word. So `--check-prefix=hlo-opt`, paths like
# test/hlo-opt/x.mlir and FileCheck patterns are left alone.
#
# lit escapes backslashes in the replacement text, so group references cannot
# be used; the "command start" context is matched with fixed-width lookbehinds
# instead (up to _MAX_WS blanks between a separator and the tool). `not` is
# substituted last, so the other patterns still see the literal word `not`.
# lit hands each RUN line to the substitutions as "%dbg(RUN: at line N) CMD",
# so ") " followed by the command counts as a command start too.
_MAX_WS = 3
_SEP = r"[|;&(]"
_WORD_END = r"(?=$|[\s|;&)<>])"


def _ws(n):
    return r"\s" * n


def _cmd_start(allow_not):
    behind = []
    for sep in ["^", _SEP, r"\)"]:
        for ws in range(_MAX_WS + 1):
            if sep == r"\)" and ws == 0:
                continue  # `)cmd` is no command start; `%dbg(...) cmd` is
            if sep != "^":
                behind.append(sep + _ws(ws))
            if allow_not:
                for ws2 in range(1, _MAX_WS + 1):
                    behind.append(sep + _ws(ws) + "not" + _ws(ws2))
                    behind.append(sep + _ws(ws) + "not" + _ws(ws2) + "--crash" + _ws(ws2))
    return "(?:" + "|".join([r"^\s*"] + ["(?<=%s)" % b for b in behind]) + ")"


# Longest names first; `not` last.
for name in sorted(tools, key=lambda n: (n == "not", -len(n))):
    pattern = _cmd_start(allow_not=(name != "not")) + re.escape(name) + _WORD_END
    config.substitutions.append((pattern, tools[name]))

# ---------------------------------------------------------------------------
# Features for REQUIRES / UNSUPPORTED / XFAIL (same list as lit.rs).
# ---------------------------------------------------------------------------
machine = platform.machine().lower()
if machine in ("x86_64", "amd64"):
    config.available_features.add("x86_64")
elif machine in ("aarch64", "arm64"):
    config.available_features.add("aarch64")
if sys.platform.startswith("linux"):
    config.available_features.add("linux")
config.available_features.add("filecheck")
if os.environ.get("RXLA_HAS_CUDA") == "1":
    config.available_features.add("cuda")

# ---------------------------------------------------------------------------
# Environment of the RUN lines.
# ---------------------------------------------------------------------------
config.environment["PATH"] = os.pathsep.join(
    [bin_dir, llvm_tools_dir, config.environment.get("PATH", "")]
)
for var in ["RXLA_HAS_CUDA", "FILECHECK_OPTS"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
