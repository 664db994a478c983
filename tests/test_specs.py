"""A run's four specifications: flat parameters sorted into them, each spec refusing its own
bad values with the parameter as data, the rules that join them, and the CLI saying each
refused parameter as its flag."""
from dataclasses import fields

import pytest

from pygraph500 import cli
from pygraph500.benchmark import ExecutionSpec, GraphSpec, OutputSpec, RunConfig, SearchSpec
from pygraph500.errors import InputError

SPECS = {"graph": GraphSpec, "search": SearchSpec, "execution": ExecutionSpec,
         "output": OutputSpec}


def test_of_sorts_every_field_into_its_spec():
    marker = object()
    for part, spec in SPECS.items():
        for f in fields(spec):
            if f.name == "options":
                continue
            config = RunConfig.of(**{f.name: marker})
            assert getattr(getattr(config, part), f.name) is marker, (part, f.name)


def test_of_puts_algorithm_options_in_search_options():
    config = RunConfig.of(scale=9, algorithm="hybrid", tasks=16, mode="fixed", gpu_share=0.25)
    assert config.search.options == {"tasks": 16, "mode": "fixed", "gpu_share": 0.25}
    assert config.graph.scale == 9 and config.search.algorithm == "hybrid"
    config.check()
    tuned = RunConfig.of(scale=9, alpha=20.0)  # an option of the default algorithm
    tuned.check()
    assert tuned.search.options == {"alpha": 20.0}
    with pytest.raises(TypeError, match="'wokers'"):
        RunConfig.of(wokers=2)


@pytest.mark.parametrize("spec,kw,param,text", [
    (GraphSpec, dict(scale=0), "SCALE", "SCALE must be an integer in [1, 62], got 0"),
    (GraphSpec, dict(edgefactor=0), "edgefactor", "edgefactor must be an integer >= 1"),
    (GraphSpec, dict(seed=(1,)), "seed", "seed must be two integers"),
    (GraphSpec, dict(sort_vertices="random"), "sort_vertices", "sort_vertices must be one of"),
    (GraphSpec, dict(input_weights="w.bin"), "input_weights",
     "input_weights are the weights of an input file without them; the generator makes"),
    (GraphSpec, dict(input="g.bin", input_weights="w.bin", unit_weights=True), "input_weights",
     "input_weights and unit weights exclude each other"),
    (SearchSpec, dict(kernel="bf"), "kernel", "kernel must be one of bfs, sssp, both"),
    (SearchSpec, dict(num_roots=0), "num_roots", "num_roots must be an integer >= 1, got 0"),
    (SearchSpec, dict(validation="x"), "validation", "validation must be one of csr, tuples"),
    (SearchSpec, dict(options={"workers": 2}), "workers",
     "workers applies to algorithm determinate; not to direction-optimizing"),
    (SearchSpec, dict(algorithm="determinate", options={"workers": 0}), "workers",
     "workers must be an integer in [1, 1024], got 0"),
    (SearchSpec, dict(options={"lam": 3}), "lambda", "lambda applies to algorithm hybrid"),
    (SearchSpec, dict(options={"depth": True}), "depth", "depth is set by the benchmark's"),
    (SearchSpec, dict(algorithm="topdown-queue", options={"alpha": 2.0}), "alpha",
     "alpha applies to algorithm direction-optimizing or hybrid; not to topdown-queue"),
    (SearchSpec, dict(algorithm="hybrid", options={"lam": -3}), "lambda", "lambda must be"),
    (SearchSpec, dict(algorithm="hybrid", options={"tasks": 0}), "tasks", "tasks must be"),
    (SearchSpec, dict(algorithm="hybrid", options={"mode": "fixed", "gpu_share": 2}),
     "gpu_share", "gpu_share must be a number in [0, 1], got 2"),
    (ExecutionSpec, dict(threads=10**6), "threads", "threads must be in [1, "),
    (ExecutionSpec, dict(backend="tpu"), "backend", "backend must be one of"),
    (ExecutionSpec, dict(partition="3d"), "partition", "partition must be one of 1d, 2d"),
    (ExecutionSpec, dict(grid="2x2"), "grid", "grid applies to partition 2d"),
])
def test_each_spec_refuses_its_own_fields(spec, kw, param, text):
    with pytest.raises(InputError) as raised:
        spec(**kw).check()
    assert str(raised.value).startswith(text) and raised.value.param == param


@pytest.mark.parametrize("kw,param", [
    (dict(kernel="sssp", backend="gpu"), "kernel"),
    (dict(algorithm="topdown-bitmap", backend="numpy-checked"), "algorithm"),
    (dict(sort_vertices="degree", backend="numpy-checked", algorithm="gpu-queue"),
     "sort_vertices"),
    (dict(deterministic=True, backend="numpy-checked", algorithm="gpu-queue"), "deterministic"),
    (dict(validation="csr", backend="numpy-checked", algorithm="gpu-queue"), "validation"),
    (dict(prune="none"), "prune"),
    (dict(algorithm="hybrid", standin_speed=2.0, backend="numpy-checked"), "standin_speed"),
])
def test_the_rules_between_specs(kw, param):
    with pytest.raises(InputError) as raised:
        RunConfig.of(scale=6, **kw).check()
    assert raised.value.param == param


@pytest.mark.parametrize("argv,line", [
    (["--roots", "0"], "--roots must be an integer >= 1, got 0"),
    (["--scale", "0"], "--scale must be an integer in [1, 62], got 0"),
    (["--workers", "2"], "--workers applies to algorithm determinate"),
    (["--algorithm", "hybrid", "--hybrid", "fixed", "--lambda", "3"],
     "--lambda applies to hybrid mode workload"),
    (["--sort-vertices", "degree", "--backend", "numpy-checked", "-a", "gpu-queue"],
     "--sort-vertices runs on the CPU backend only"),
    (["--threads", "100000"], "--threads must be in [1, "),
    (["--pipeline"], "--pipeline applies to distributed runs only"),
])
def test_the_cli_says_the_parameter_as_its_flag(argv, line, capsys):
    scale = [] if "--scale" in argv else ["--scale", "6"]
    assert cli.main(["run", *scale, *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"graph500: error: {line}"), err
