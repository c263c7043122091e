// Self-test: a test whose required features are missing is skipped (ignored).
// REQUIRES: filecheck, no-such-feature
// RUN: false
module {}
