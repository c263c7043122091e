"""A sample of the oracle corpus (test/oracle) through python/tools/oracle_runner.py and check.py."""
import os
import shlex
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES = os.path.join(ROOT, "test", "oracle", "cases")
CHECK = os.path.join(ROOT, "test", "oracle", "check.py")
RUNNER = os.path.join(ROOT, "python", "tools", "oracle_runner.py")

pytestmark = pytest.mark.skipif(not os.path.isdir(CASES), reason="no oracle corpus (test/oracle/cases)")


def sample(every):
    names = sorted(n for n in os.listdir(CASES) if os.path.isfile(os.path.join(CASES, n, "meta.json")))
    return names[::every]


def check(tmp_path, names, runner_args, jobs=2):
    listing = tmp_path / "names.txt"
    listing.write_text("\n".join(names) + "\n")
    runner = " ".join(shlex.quote(a) for a in [sys.executable, RUNNER]) + " {module} {inputs} {output} " + runner_args
    p = subprocess.run(
        [sys.executable, CHECK, "--names", str(listing), "--runner", runner, "--jobs", str(jobs), "-q"],
        capture_output=True,
        text=True,
    )
    return p


def test_every_tenth_case_on_cpu(tmp_path):
    names = sample(10)
    p = check(tmp_path, names, "--platform cpu")
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
    assert f"{len(names)} passed, 0 failed" in p.stdout


def test_every_fiftieth_case_on_the_emulated_gpu(tmp_path):
    names = sample(50)
    p = check(tmp_path, names, "--platform gpu --emulate-gpu")
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
    assert f"{len(names)} passed, 0 failed" in p.stdout


def test_runner_errors(tmp_path):
    bad = tmp_path / "bad.hlo"
    bad.write_text("HloModule m\nENTRY e {\n  ROOT x = f32[2] frob()\n}\n")
    inputs = os.path.join(CASES, sorted(os.listdir(CASES))[0], "inputs.npz")
    p = subprocess.run([sys.executable, RUNNER, str(bad), inputs, str(tmp_path / "out.npz")], capture_output=True, text=True)
    assert p.returncode == 1
    assert "bad.hlo:3:" in p.stderr
