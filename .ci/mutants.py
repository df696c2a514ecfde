"""The four mutants of the betting maths that issue 23 named: each must make `tests/book` fail.

    python .ci/mutants.py

Each mutant is applied to a copy of the package in a temporary folder (the tree is never
touched), `pytest tests/book` runs against the copy, and a line says whether it was caught.
Exits 1 if one survived.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = [
    ("best-price tie order", "oddstui/book/arbitrage.py",
     "or price > current[0]", "or price >= current[0]"),
    ("rounding tie-break (total nearest the one asked)", "oddstui/book/stakes.py",
     "return (guaranteed, -abs(sum(stakes) - t), best_case_result(d, stakes))",
     "return (guaranteed, abs(sum(stakes) - t), best_case_result(d, stakes))"),
    ("round-down nudge", "oddstui/book/stakes.py",
     "nudge = -1e-9 if round_up else 1e-9", "nudge = -1e-9 if round_up else 0.0"),
    ("more than four legs", "oddstui/book/stakes.py",
     "while sum(best) * r > t + slack:", "while sum(best) * r > t + slack + r:"),
]


def main() -> int:
    survived = 0
    with tempfile.TemporaryDirectory(prefix="oddstui-mutants-") as folder:
        copy = Path(folder)
        for part in ("oddstui", "tests", "pyproject.toml"):
            source = ROOT / part
            if source.is_dir():
                shutil.copytree(source, copy / part)
            else:
                shutil.copy(source, copy / part)
        env = {**os.environ, "PYTHONPATH": str(copy)}
        command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:xdist",
                   "-p", "no:cacheprovider", "-o", "addopts=", "tests/book"]
        for name, path, original, mutant in MUTANTS:
            target = copy / path
            text = target.read_text()
            if original not in text:
                print(f"{name}: the original line is gone from {path}; update this script")
                return 2
            target.write_text(text.replace(original, mutant))
            run = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True)
            target.write_text(text)
            caught = run.returncode != 0
            survived += not caught
            tail = run.stdout.strip().splitlines()[-1:] or ["(no output)"]
            print(f"{name}: {'caught' if caught else 'SURVIVED'} ({tail[0]})", flush=True)
    return 1 if survived else 0


if __name__ == "__main__":
    raise SystemExit(main())
