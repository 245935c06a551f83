"""The speed benchmarks of gdl, run as `python -m benchmarks` from the repository's root (see
docs/performance.md): suites of cases, each the same work done by several implementations,
measured by `benchmarks.harness` and printed as one table by `benchmarks.report`."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
