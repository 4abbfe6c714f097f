"""``python -m bench.bench_load``: the whole-stack load benchmark under the name the capacity
issue gives it; the benchmark itself is :mod:`bench.perf.load`."""

from bench.perf.load import main

if __name__ == "__main__":
    main()
