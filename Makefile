# rummykit: `make play` sets up and starts the terminal app (or the line prompt), `make test` sets up and runs every check.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.rummykit-installed

.PHONY: play test lint typecheck pytest bench study clean serve web chromium

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "rummykit needs Python 3.11 or newer; set PYTHON=python3.11 (or newer)")'
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@echo "compiling the solver's search (once; 15 to 40 seconds on a 2-core machine)..."
	$(BIN)/python -c 'import rummykit.solve as s; print(f"solver ready in {s.warm_up():.1f} s")'
	@touch $(STAMP)

# The full-screen app on a terminal; the line prompt when stdout is not a terminal or TERM is dumb.
play: $(STAMP)
	@if [ -t 1 ] && [ "$${TERM:-dumb}" != dumb ]; then \
		$(BIN)/rummykit tui; \
	else \
		echo "no full-screen terminal here (stdout is not a terminal, or TERM=dumb): the line prompt instead"; \
		$(BIN)/rummykit play rummikub --bots 2; \
	fi

test: web chromium lint typecheck pytest

# The browser client (web/, TypeScript + Vite) is built into src/rummykit/server/static/, which is committed,
# so `make play`, `make serve` and `pip install` never need Node. With node on the PATH this rebuilds it
# (same sources: same files); without node the committed build is used.
web:
	@if command -v npm >/dev/null 2>&1; then \
		cd web && npm ci --no-audit --no-fund && npm run build; \
	else \
		echo "node/npm not found: using the committed browser client in src/rummykit/server/static/"; \
	fi

# Debian's chromium for the browser tests (tests/test_browser*.py, Playwright drives /usr/bin/chromium).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
		elif command -v sudo >/dev/null 2>&1; then \
			sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
		else \
			echo "the browser tests need /usr/bin/chromium: install Debian's chromium package as root (apt-get install chromium)"; \
			exit 1; \
		fi; \
	fi

lint: $(STAMP)
	$(BIN)/ruff check src tests bench tools

typecheck: $(STAMP)
	$(BIN)/mypy --strict src/rummykit tests

pytest: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python bench/bench_rummikub.py

# Every study of docs/studies/ again (about an hour on 2 cores): rows in studies-data/, pictures in docs/studies/images/.
study: $(STAMP)
	RUMMYKIT=$(BIN)/rummykit sh docs/studies/run-all.sh

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis

# The game server for playing in the browser (docs/online.md): http://127.0.0.1:8000
serve: $(STAMP)
	$(BIN)/rummykit serve
