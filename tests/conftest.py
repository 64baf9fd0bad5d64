"""Shared pytest configuration."""

from __future__ import annotations

import os

import matplotlib

# Importing the package drops numba's cached kernels if a kernel module changed since they
# were compiled (``solo_analysis/_kernel_cache.py``): the tests never run stale kernels.
import solo_analysis  # noqa: F401

matplotlib.use("Agg")

# Hypothesis: bounded work so the suite fits CI's budget.
try:
    from hypothesis import settings

    settings.register_profile("ci", max_examples=60, deadline=None)
    settings.register_profile("dev", max_examples=100, deadline=None)
    settings.load_profile("ci" if os.environ.get("CI") else "dev")
except ImportError:  # pragma: no cover
    pass
