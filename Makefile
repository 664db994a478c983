# The two commands of the README: `make run` and `make test`. Both set everything up from nothing.
VENV ?= .venv
PYTHON ?= python3
PY := $(VENV)/bin/python
SCALE ?= 20
ARGS ?=

.PHONY: run test bench clean

$(VENV)/.installed: pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,plot,mpi]'
	touch $@

run: $(VENV)/.installed
	$(VENV)/bin/graph500 run --scale $(SCALE) $(ARGS)

test: $(VENV)/.installed
	$(PY) -m pytest -q $(ARGS)

bench: $(VENV)/.installed
	$(PY) benchmarks/bench_graph500.py $(ARGS)

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
