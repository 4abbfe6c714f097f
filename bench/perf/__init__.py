"""Performance benchmarks: medians and ratios against a baseline measured in the same run."""
