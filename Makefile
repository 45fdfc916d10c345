# KernelDojo: `make serve` and `make test` are the whole set-up on a fresh machine.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: install system-deps serve test test-fast lint fmt gpu-check problems-check compose-smoke clean

# setuptools boxes a warning on every editable install ("be careful with folders in your working
# directory with the same name as your package"): known here (pyproject.toml's packages.find
# names ours), so that one warning is filtered by its message; any other warning or error shows.
# (tests/test_quiet_install.py)
EDITABLE_QUIET := PYTHONWARNINGS="ignore:Editable installation"

$(STAMP): pyproject.toml requirements/torch-cpu.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements/torch-cpu.txt
	$(EDITABLE_QUIET) $(PY) -m pip install -q -e '.[judge,web,dev]'
	touch $@

# The browser bundle: CodeMirror 6 and KaTeX from npm, bundled by esbuild into app/static/dist/
# (gitignored; never committed). Rebuilt when the lock file or the sources change.
NODE_STAMP := node_modules/.installed
BUNDLE     := app/static/dist/.built

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(BUNDLE): $(NODE_STAMP) scripts/build-static.mjs $(wildcard app/static/src/*.js)
	node scripts/build-static.mjs
	touch $@

install: $(STAMP) $(BUNDLE)

# Debian packages the tests and the sandbox need (Chromium for browser tests, bubblewrap).
system-deps:
	bash scripts/install-system-deps.sh

serve: install system-deps
	$(VENV)/bin/kerneldojo serve --host $(HOST) --port $(PORT)

test: install system-deps
	$(PY) -m pytest --durations=25

test-fast: install
	$(PY) -m pytest -m "not browser and not slow"

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

fmt: install
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

problems-check: install
	$(VENV)/bin/kerneldojo problems check --device cpu

# On a GPU host (torch with CUDA, triton, numpy, nvcc): every sample, adversarial submission and
# benchmark in one call. Uses the host's python3, not the CPU venv.
gpu-check:
	python3 scripts/gpu_check.py

# The container stack end to end (build, up with the cpu profile, grade, restart, SIGKILL, the
# GPU image without a GPU, stop, down); needs Docker or Podman, takes minutes (SMOKE_ARGS=--no-gpu
# skips the GPU image), not part of `make test` or CI. Writes records/<date>-<n>core-compose-smoke/.
compose-smoke:
	python3 scripts/compose_smoke.py $(SMOKE_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
