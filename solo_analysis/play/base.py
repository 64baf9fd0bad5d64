"""The play-model interface: how a fixed deal is played out, and what the advice asks of it.

A play model answers questions about deals (:class:`~solo_analysis.solver.Question`: trump,
leader, declarer side, misère, and a target or a trick count).  Double-dummy play
(:class:`~solo_analysis.play.double_dummy.DoubleDummy`) is one model; any other subclasses
:class:`PlayModel` and implements :meth:`PlayModel.tricks` (the simplest) or
:meth:`PlayModel.ask` (to answer a round of questions at once).

Encodings: deals are ``int8[n, 4, k]`` card codes, seats in play order (0 = eldest ..
3 = dealer, :mod:`solo_analysis.cards`); trump 0..4 (4 = no trump); an answer is an int per
deal, -1 where the model gave up on that deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..solver import Question

__all__ = ["PlayModel"]


class PlayModel:
    """How a fixed deal is played out: subclasses answer the questions the advice asks.

    Attributes
    ----------
    name : str
        The model's name in the registry and in every report.
    note : str
        A one-line caveat shown wherever a probability is reported.
    positions : int or None
        Work done so far, in search positions, by a model that counts them (``None``: it does
        not, and a cap on positions cannot apply to it).
    uses_exposure : bool
        Whether the model plays Spread Misère differently from Misère (the declarer's hand
        shown after the first trick): False for a model that lets everyone see every card.
    counts_tricks : bool
        Whether the model answers trick counts (questions without a target), as the trick
        distributions and a rule set paying by the trick need.
    """

    name: str = "abstract"
    note: str = ""
    positions: int | None = None
    uses_exposure: bool = False
    counts_tricks: bool = True

    def options(self) -> dict[str, Any]:
        """The model's own settings, as JSON-ready values (part of an odds-table run's identity).

        Empty for a model without settings beyond its cap and threads.
        """
        return {}

    def tricks(
        self,
        deals: np.ndarray,
        *,
        trump: int,
        leader: int,
        declarers: tuple[int, ...],
        misere: bool,
    ) -> np.ndarray:
        """Tricks taken by the declarer side on each deal (ints of length ``n``; -1: gave up)."""
        raise NotImplementedError

    def makes(
        self,
        deals: np.ndarray,
        *,
        trump: int,
        leader: int,
        declarers: tuple[int, ...],
        misere: bool,
        target: int,
    ) -> np.ndarray:
        """Whether the declarer side reaches ``target`` (misère: stays at or under it).

        An ``int8`` array: 1 (makes), 0 (fails) or -1 (the model gave up on the deal).
        """
        t = np.asarray(
            self.tricks(deals, trump=trump, leader=leader, declarers=declarers, misere=misere)
        )
        ok = (t <= target) if misere else (t >= target)
        return np.where(t < 0, -1, ok.astype(np.int8)).astype(np.int8)

    def ask(
        self,
        deals: np.ndarray,
        questions: Sequence[Question],
        *,
        turnups: np.ndarray | None = None,
    ) -> list[np.ndarray]:
        """Answer several questions about the same deals, one ``int8`` array per question.

        Each answer covers the question's ``subset`` of the deals (all of them for ``None``):
        :meth:`tricks` where its ``target`` is ``None``, else :meth:`makes`.  ``turnups`` is
        the turn-up card of each deal (``None``: none), which every player sees.  This default
        asks them one by one; a model that can do better (the double-dummy one runs them all in
        one parallel pass) overrides it.
        """
        out = []
        for q in questions:
            part = deals if q.subset is None else deals[q.subset]
            if q.target is None:
                answer = self.tricks(
                    part, trump=q.trump, leader=q.leader, declarers=q.declarers, misere=q.misere
                )
            else:
                answer = self.makes(
                    part,
                    trump=q.trump,
                    leader=q.leader,
                    declarers=q.declarers,
                    misere=q.misere,
                    target=q.target,
                )
            out.append(np.asarray(answer).astype(np.int8))
        return out
