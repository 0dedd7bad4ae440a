#!/usr/bin/env bash
# Create the separate virtualenv the solver benchmark compares against (bench/.venv-compare)
# and install the PyPI package rummikub-solver there (with highspy, its preferred MILP
# backend). It is never a dependency of rummykit and never touches .venv.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/.venv-compare"
python="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "rummikub-solver==1.0.0" highspy
"$venv/bin/python" -c "import rummikub_solver; print('rummikub-solver', rummikub_solver.__version__, 'ready in', '$venv')"
