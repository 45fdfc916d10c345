#!/usr/bin/env bash
# The web side's wheels for `scripts/gpu_check.py --phase class` on a GPU host that has torch,
# Triton and numpy but no package index (list and pins: requirements/web-on-gpu-host.txt).
#
#   scripts/gpu_wheels.sh            # CPython 3.12 wheels into .whl/web (git-ignored)
#   scripts/gpu_wheels.sh --verify   # the same list for this machine's python3, installed into a
#                                    # scratch folder and imported by a venv that sees nothing else
#
# Then copy the repository (with .whl/web) to the GPU host and there:
#   pip install --no-deps --target /tmp/web .whl/web/*.whl
#   PYTHONPATH=/tmp/web:$PWD python3 scripts/gpu_check.py --phase class --out DIR
# (without pip: for w in .whl/web/*.whl; do python3 -m zipfile -e "$w" /tmp/web; done)
set -euo pipefail
cd "$(dirname "$0")/.."
LIST=requirements/web-on-gpu-host.txt

fetch() {  # fetch DEST PYTHON_VERSION
    mkdir -p "$1"
    rm -f "$1"/*.whl  # a stale pin would be installed beside the new one
    python3 -m pip download --no-deps --only-binary=:all: \
        --platform manylinux_2_28_x86_64 --platform manylinux2014_x86_64 --platform any \
        --python-version "$2" -d "$1" -r "$LIST" --quiet
    echo "$(ls "$1"/*.whl | wc -l) wheels, $(du -ch "$1"/*.whl | tail -1 | cut -f1) in $1"
}

if [[ "${1:-}" != "--verify" ]]; then
    fetch .whl/web 3.12
    exit 0
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fetch "$scratch/wheels" "$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
python3 -m pip install --quiet --no-deps --no-index --target "$scratch/site" "$scratch"/wheels/*.whl
python3 -m venv --without-pip "$scratch/venv"
# Nothing from .venv or the user's site: only the stdlib, the scratch folder and the repository.
DATA_DIR="$scratch" PYTHONPATH="$scratch/site:$PWD" PYTHONNOUSERSITE=1 "$scratch/venv/bin/python" - "$scratch" <<'PY'
import sys
from pathlib import Path

import app.classes.editorial
import app.classes.export
import app.classes.grades
import app.submissions
import worker.tasks
from app.classes.schemas import AssignmentCreate
from app.core.db import migrate
from app.core.security import hash_password
from app.problems import ProblemRegistry

scratch = Path(sys.argv[1])
migrate(f"sqlite:///{scratch / 'check.db'}")
# What scripts/gpu_class.py does besides grading: hash a password, render the statements,
# read an assignment's times in a named zone.
hash_password("class-check-pass-1")
assert ProblemRegistry().reload().problems
at = "2026-12-01T12:00:00"
AssignmentCreate(
    title="t", opens_at=at, due_at=at[:-1] + "1", timezone="Europe/Berlin",
    problems=[{"problem": "vector-add"}],
)
# Every module came from the stdlib, the scratch folder or the repository.
mine = (str(scratch), str(Path.cwd()))
files = [getattr(m, "__file__", None) or "" for m in list(sys.modules.values())]
borrowed = sorted(f for f in files if "-packages" in f and not f.startswith(mine))
assert not borrowed, borrowed
print("imports, migrations and the class check's set-up work with only these wheels")
PY
