# The two commands of the README: `make run` and `make test`. Both set everything up from nothing.
# `make gpu-check`: the first run on a machine with a CUDA device (benchmarks/gpu_check.py).
VENV ?= .venv
PYTHON ?= python3
PY := $(VENV)/bin/python
SCALE ?= 20
ARGS ?=
# test files run in two processes (a file's tests together, so its fixtures are made once;
# RESULTS.md has the times); TEST_WORKERS=0 runs them in this one process
TEST_WORKERS ?= 2

.PHONY: run test bench gpu-check clean

$(VENV)/.installed: pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,plot,mpi,ptx,docs]'
	touch $@

run: $(VENV)/.installed
	$(VENV)/bin/graph500 run --scale $(SCALE) $(ARGS)

test: $(VENV)/.installed
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadfile $(ARGS)

bench: $(VENV)/.installed
	$(PY) benchmarks/bench_graph500.py $(ARGS)

# The device tests and both GPU benchmarks into gpu-check-report.txt; without a device it says
# so and runs the device-free checks (exit 1 only when something is broken).
gpu-check: $(VENV)/.installed
	@if nvidia-smi -L >/dev/null 2>&1 && ! $(PY) -c 'import cupy' 2>/dev/null; then \
	    $(PY) -m pip install -q -e '.[gpu]' || echo "gpu-check: could not install the gpu extra"; \
	fi
	$(PY) benchmarks/gpu_check.py --report gpu-check-report.txt $(ARGS)

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
