"""Run by hand, never by the test suite: ``perf`` (how fast), ``strength`` (how well the computer
plays) and ``builders`` (the tools that build the data the bot ships). See ``bench/README.md``."""
