"""Play models: how a sampled deal is played out, and the contract questions asked of them.

:class:`PlayModel` is the interface; :class:`DoubleDummy` (everyone sees every card) and
:class:`Pimc` (realistic play: each player decides from what he can see) are the models;
:data:`PLAY_MODELS` and :func:`make_play_model` choose one by name.
:mod:`~solo_analysis.play.questions` turns a seat's contract options into questions.
"""

from .base import PlayModel
from .double_dummy import DoubleDummy
from .pimc import Pimc, Prior
from .registry import PLAY_MODELS, PLAY_OPTIONS, make_play_model

__all__ = [
    "PLAY_MODELS",
    "PLAY_OPTIONS",
    "DoubleDummy",
    "Pimc",
    "PlayModel",
    "Prior",
    "make_play_model",
]
