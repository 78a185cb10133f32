"""The performance harness: `make bench` / `python -m benchmarks`."""
