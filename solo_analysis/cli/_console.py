"""What the commands print on stderr besides errors: the one-time compile notice."""

from __future__ import annotations

import os
import sys

import click


def stderr_is_terminal() -> bool:
    """Whether stderr is an interactive terminal (progress and notices are shown only then)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # closed or replaced stream
        return False


def needs_compiling(*kernels: str) -> bool:
    """True if a numba kernel named here (``"_solver.solve_many"``, ...) has no on-disk cache yet.

    Looks for the cache index files numba writes next to the kernels (``cache=True``).  Any
    surprise (numba internals changed, a kernel renamed) answers False: the notice is optional.
    """
    try:
        from .. import _sampler, _solver

        modules = {"_solver": _solver, "_sampler": _sampler}
        paths = []
        for name in kernels:
            module, attr = name.split(".")
            paths.append(getattr(modules[module], attr)._cache._cache_file._index_path)
    except Exception:  # noqa: BLE001
        return False
    return not all(os.path.exists(p) for p in paths)


def compile_notice(*kernels: str) -> None:
    """On a terminal, say once that this first run compiles the kernels it is about to use."""
    if stderr_is_terminal() and needs_compiling(*kernels):
        click.echo("solo-analysis: compiling the solver on first use (cached for later runs); "
                   "this can take a minute", err=True)  # fmt: skip


__all__ = ["stderr_is_terminal", "needs_compiling", "compile_notice"]
