"""One local Ray runtime of two CPUs for the whole test session, started only if a test asks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def ray_runtime() -> Iterator[Any]:
    """A local Ray runtime (two CPUs, no dashboard), shut down after the session."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


@pytest.fixture
def sigint_interrupts() -> Iterator[None]:
    """SIGINT raising KeyboardInterrupt in this process, as at a terminal, for a test that
    sends it to itself: a shell without job control (a CI script, `cmd &`) starts Python
    with SIGINT ignored, and Python then leaves it ignored."""
    import signal

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
