"""``python -m bench.bench_render``: every board kind's drawing time under the name the capacity
issue gives it; the benchmark itself is :mod:`bench.perf.render`."""

from bench.perf.render import main

if __name__ == "__main__":
    main()
