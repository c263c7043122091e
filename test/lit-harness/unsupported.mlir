// Self-test: a test marked unsupported for an available feature is skipped.
// UNSUPPORTED: filecheck
// RUN: false
module {}
