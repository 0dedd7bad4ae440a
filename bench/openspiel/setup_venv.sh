#!/usr/bin/env bash
# Create bench/.openspiel-venv, a virtualenv of its own holding OpenSpiel, for
# the throughput comparison in bench_throughput.py --openspiel. OpenSpiel is
# never a dependency of rummykit: it lives only in this separate environment.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/../.openspiel-venv"
python="${PYTHON:-python3.11}"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "open_spiel>=1.5,<3"
"$venv/bin/python" -c "import pyspiel; print('pyspiel', pyspiel.__file__)"
