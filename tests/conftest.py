"""Shared pytest configuration."""

from __future__ import annotations

import os

import matplotlib
from script_loader import ROOT, load_script

matplotlib.use("Agg")


def _clear_stale_kernel_caches() -> None:
    """Drop numba's cached kernels if a kernel module changed since they were compiled.

    numba checks a cached kernel against its own source file only, so an edit to a helper it
    inlines from another file would otherwise leave the tests running the old code
    (``tools/numba_cache.py``).
    """
    load_script(ROOT / "tools" / "numba_cache.py").clear_stale_caches(ROOT / "solo_analysis")


_clear_stale_kernel_caches()

# Hypothesis: bounded work so the suite fits CI's budget.
try:
    from hypothesis import settings

    settings.register_profile("ci", max_examples=60, deadline=None)
    settings.register_profile("dev", max_examples=100, deadline=None)
    settings.load_profile("ci" if os.environ.get("CI") else "dev")
except ImportError:  # pragma: no cover
    pass
