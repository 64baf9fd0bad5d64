"""What the commands print on stderr besides errors: the one-time compile notice."""

from __future__ import annotations

import os
import sys

import click

#: said once, on a terminal, before a run that compiles the kernels
COMPILE_NOTICE = (
    "solo-analysis: compiling the solver on first use (cached for later runs); "
    "this can take a minute"
)


def stderr_is_terminal() -> bool:
    """Whether stderr is an interactive terminal (progress and notices are shown only then)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # closed or replaced stream
        return False


def needs_compiling(*kernels: str) -> bool:
    """True if a numba kernel named here (``"solver.solve_many"``, ...) has no on-disk cache yet.

    A name is ``"solver.KERNEL"`` (a kernel of :mod:`solo_analysis.solver._kernels`),
    ``"sampler.KERNEL"`` (of :mod:`solo_analysis.sampler._kernel`) or ``"stats.KERNEL"`` (of
    :mod:`solo_analysis.stats._features`, the control variates' features).  Looks for the
    cache index files numba writes next to the kernels (``cache=True``).  Any surprise (numba
    internals changed, a kernel renamed) answers False: the notice is optional.
    """
    try:
        from ..sampler import _kernel as sampler_kernels
        from ..solver import _kernels as solver_kernels
        from ..stats import _features as stats_kernels

        modules = {"solver": solver_kernels, "sampler": sampler_kernels, "stats": stats_kernels}
        paths = []
        for name in kernels:
            module, attr = name.split(".")
            paths.append(getattr(modules[module], attr)._cache._cache_file._index_path)
    except Exception:  # the notice is optional: any surprise answers False
        return False
    return not all(os.path.exists(p) for p in paths)


def compile_notice(*kernels: str) -> None:
    """On a terminal, say once that this first run compiles the kernels it is about to use."""
    if stderr_is_terminal() and needs_compiling(*kernels):
        click.echo(COMPILE_NOTICE, err=True)


__all__ = ["COMPILE_NOTICE", "compile_notice", "needs_compiling", "stderr_is_terminal"]
