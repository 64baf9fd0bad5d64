"""The play models by name, as ``advise(..., play_model=NAME)`` and ``--play NAME`` choose them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..errors import PlayModelError
from .base import PlayModel
from .double_dummy import DoubleDummy
from .pimc import Pimc

__all__ = ["PLAY_MODELS", "PLAY_OPTIONS", "make_play_model"]


#: play model name -> factory taking ``max_positions``, ``threads`` and its own options
def _pimc(max_positions: int | None = None, threads: int | None = None, **options: Any) -> Pimc:
    """Realistic play, built with its own options and threads.

    Its cap is per imagined deal (option ``world_positions``), so the double-dummy cap per
    question, ``max_positions``, does not apply.
    """
    return Pimc(threads=threads, **options)


PLAY_MODELS: dict[str, Callable[..., PlayModel]] = {"double-dummy": DoubleDummy, "pimc": _pimc}
#: the options each model takes beyond ``max_positions`` and ``threads``
PLAY_OPTIONS: dict[str, tuple[str, ...]] = {
    "double-dummy": (),
    "pimc": ("worlds", "prior", "seed", "world_positions", "pimc_tricks"),
}


def make_play_model(
    spec: str | PlayModel,
    *,
    max_positions: int | None = None,
    threads: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> PlayModel:
    """The play model named ``spec`` (any case), built with these options; a model as it is.

    Parameters
    ----------
    spec : str or PlayModel
        A name of :data:`PLAY_MODELS`, or a model (returned unchanged: it carries its own
        options).
    max_positions : int, optional
        Search positions one question on one deal may take before the model gives up on it
        (for realistic play: one imagined deal at one decision).
    threads : int, optional
        numba threads the model may use.
    options : mapping, optional
        The model's own options (:data:`PLAY_OPTIONS`: ``worlds``, ``prior`` and ``seed`` for
        ``pimc``).

    Raises
    ------
    PlayModelError
        If ``spec`` names no play model, or an option does not belong to it.
    """
    if isinstance(spec, PlayModel):
        return spec
    name = spec.strip().lower() if isinstance(spec, str) else None
    if name not in PLAY_MODELS:
        raise PlayModelError(f"unknown play model {spec!r}; available: {', '.join(PLAY_MODELS)}")
    extra = dict(options or {})
    unknown = [key for key in extra if key not in PLAY_OPTIONS[name]]
    if unknown:
        takes = ", ".join(PLAY_OPTIONS[name]) or "none"
        raise PlayModelError(
            f"play model {name!r} takes no option {unknown[0]!r} (its options: {takes})"
        )
    return PLAY_MODELS[name](max_positions=max_positions, threads=threads, **extra)
