// Self-test of the lit runners (opt-tool/tests/lit.rs and test/lit.cfg.py):
// %t / %S / %s substitutions, RUN-line continuation, not, count, FileCheck.
// No hlo-opt involved, so this only breaks if the harness does.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: echo "file=%s" > %t/out.txt
// RUN: echo "dir=%S" \
// RUN:   >> %t/out.txt
// RUN: FileCheck %s --check-prefix=SUBST --input-file=%t/out.txt
// RUN: printf 'a\nb\n' | count 2
// RUN: not false
// RUN: echo 'percent=%%' | FileCheck %s --check-prefix=PCT
//
// SUBST: file={{.*}}lit-harness{{/|\\}}substitutions.mlir
// SUBST-NEXT: dir={{.*}}lit-harness
// PCT: percent=%{{$}}
module {}
