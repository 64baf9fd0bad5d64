"""The play models by name, as ``advise(..., play_model=NAME)`` and ``--play NAME`` choose them."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import PlayModelError
from .base import PlayModel
from .double_dummy import DoubleDummy

__all__ = ["PLAY_MODELS", "make_play_model"]

#: play model name -> factory taking ``max_positions`` and ``threads``
PLAY_MODELS: dict[str, Callable[..., PlayModel]] = {"double-dummy": DoubleDummy}


def make_play_model(
    spec: str | PlayModel, *, max_positions: int | None = None, threads: int | None = None
) -> PlayModel:
    """The play model named ``spec`` (any case), built with these options; a model as it is.

    Parameters
    ----------
    spec : str or PlayModel
        A name of :data:`PLAY_MODELS`, or a model (returned unchanged: it carries its own
        options).
    max_positions : int, optional
        Search positions one question on one deal may take before the model gives up on it.
    threads : int, optional
        numba threads the model may use.

    Raises
    ------
    PlayModelError
        If ``spec`` names no play model.
    """
    if isinstance(spec, PlayModel):
        return spec
    if isinstance(spec, str) and spec.strip().lower() in PLAY_MODELS:
        return PLAY_MODELS[spec.strip().lower()](max_positions=max_positions, threads=threads)
    raise PlayModelError(f"unknown play model {spec!r}; available: {', '.join(PLAY_MODELS)}")
