"""Double-dummy play: every player sees all four hands and plays perfectly.

Exact for what it is, and the reference of every bridge tool; pessimistic for the declarer of
a plain Misère, whose hand the real defence cannot see, and exact for Spread Misère after the
first trick.  Each question goes to the solver (:func:`~solo_analysis.solver.solve_questions`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..solver import Question, solve_questions
from .base import PlayModel

__all__ = ["DoubleDummy"]


class DoubleDummy(PlayModel):
    """Perfect play with all four hands visible.

    Parameters
    ----------
    max_positions : int, optional
        Give up on a deal (answer -1) once one question on it has taken this many search
        positions; ``None``: no limit, every answer exact.
    threads : int, optional
        numba threads the solver may use (``None``: numba's thread count).
    """

    name = "double-dummy"
    note = (
        "double-dummy play: every player sees all the cards; exact for Spread Misère after the "
        "first trick, pessimistic for the declarer in plain Misère"
    )

    def __init__(self, max_positions: int | None = None, threads: int | None = None) -> None:
        self.max_positions = max_positions
        self.threads = threads
        self.positions = 0

    def tricks(
        self,
        deals: np.ndarray,
        *,
        trump: int,
        leader: int,
        declarers: tuple[int, ...],
        misere: bool,
    ) -> np.ndarray:
        """Tricks of the declarer side on each deal (-1 where over ``max_positions``)."""
        return self.ask(deals, [Question(trump, leader, declarers, misere)])[0]

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
        """1 / 0 whether the declarer side reaches ``target`` (-1 where over ``max_positions``)."""
        return self.ask(deals, [Question(trump, leader, declarers, misere, target)])[0]

    def ask(
        self,
        deals: np.ndarray,
        questions: Sequence[Question],
        *,
        turnups: np.ndarray | None = None,
    ) -> list[np.ndarray]:
        """All the questions in one parallel run of the solver; counts its positions.

        ``turnups`` changes nothing: every card is seen anyway.
        """
        answers, work = solve_questions(
            deals,
            questions,
            max_positions=self.max_positions,
            threads=self.threads,
            return_positions=True,
        )
        self.positions = (self.positions or 0) + sum(int(w.sum()) for w in work)
        return [a.astype(np.int8) for a in answers]
