// Self-test: an XFAIL test whose RUN line fails counts as an expected failure
// (a passing XFAIL test would be reported as a failure: XPASS).
// XFAIL: *
// RUN: not true
module {}
