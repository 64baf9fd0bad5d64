"""What the solver is asked: :class:`Question`, one question about a deal or a set of deals."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..cards import NT, DeclarersLike, parse_declarers, parse_seat, parse_trump
from ..errors import DealError, SeatError

__all__ = ["Question"]


@dataclass(frozen=True, eq=False)
class Question:
    """One double-dummy question: a contract's trump, leader and declarer side, and what to ask.

    Parameters
    ----------
    trump : str, int or None
        The trump suit (``"S"``, ``"hearts"``, ``"♥"``, 0..3) or no trump (``None``, ``"NT"``,
        4): anything :func:`~solo_analysis.cards.parse_trump` reads.
    leader : str or int
        The seat that leads to the first trick: ``"N"``, ``"east"``, ``"eldest"``, 0..3
        (:func:`~solo_analysis.cards.parse_seat`).
    declarers : str, int or iterable of str or int
        The declarer side: one seat, or two (Prop and Cop), e.g. ``"NS"``, ``"N+E"``,
        ``(0, 2)``, ``"eldest"`` (:func:`~solo_analysis.cards.parse_declarers`).
    misere : bool, default False
        Misère: the (single) declarer minimises his tricks, the other three maximise them.
    target : int, optional
        ``None`` asks for the declarer side's tricks; an int ``t >= 0`` asks a yes/no question:
        normal contracts "can the side take at least ``t`` tricks?", misère "can the declarer
        hold himself to at most ``t`` tricks?".  Checked against the deal's size when solved.
    subset : array of int, optional
        For :func:`~solo_analysis.solver.solve_questions`: the indices of the deals to ask it
        on (``None``: all of them).
    exposed : bool, default False
        The declarer's hand is laid face up after the first trick (Spread Misère).  Double-dummy
        play sees every hand anyway and ignores it; a model of realistic play does not.

    Attributes
    ----------
    trump, leader : int
        The trump code 0..4 (4 = no trump) and the leader's seat 0..3.
    declarers : tuple of int
        The declarer seats, sorted.
    misere : bool
    target : int or None
    subset : numpy.ndarray of int64 or None
        One-dimensional.
    exposed : bool

    Raises
    ------
    TrumpError, SeatError
        For an unknown trump, leader or declarer side, or a misère with other than exactly
        one declarer.
    DealError
        For a target that is not an int >= 0, or a subset that is not a one-dimensional
        array of ints.

    Examples
    --------
    >>> q = Question("H", "E", "NS", target=8)
    >>> q.trump, q.leader, q.declarers, q.key
    (1, 1, (0, 2), (1, 1, (0, 2), False, 8))
    """

    trump: int
    leader: int
    declarers: tuple[int, ...]
    misere: bool = False
    target: int | None = None
    subset: npt.NDArray[np.int64] | None = None
    exposed: bool = False

    if TYPE_CHECKING:
        # what the constructor accepts; __post_init__ normalises it to the fields' types
        def __init__(
            self,
            trump: str | int | None,
            leader: str | int,
            declarers: DeclarersLike,
            misere: bool = False,
            target: int | None = None,
            subset: npt.ArrayLike | None = None,
            exposed: bool = False,
        ) -> None: ...

    def __post_init__(self) -> None:
        raw: Any = self.trump
        trump = raw if type(raw) is int and 0 <= raw <= NT else parse_trump(raw)
        raw = self.leader
        leader = raw if type(raw) is int and 0 <= raw < 4 else parse_seat(raw)
        declarers = parse_declarers(self.declarers)
        misere = bool(self.misere)
        if misere and len(declarers) != 1:
            raise SeatError(f"misère has exactly one declarer, got {self.declarers!r}")
        object.__setattr__(self, "trump", trump)
        object.__setattr__(self, "leader", leader)
        object.__setattr__(self, "declarers", declarers)
        object.__setattr__(self, "misere", misere)
        object.__setattr__(self, "target", _check_target(self.target))
        object.__setattr__(self, "subset", _check_subset(self.subset))
        object.__setattr__(self, "exposed", bool(self.exposed))

    @property
    def key(self) -> tuple[int, int, tuple[int, ...], bool, int | None]:
        """``(trump, leader, declarers, misere, target)``: the question without its subset."""
        return (self.trump, self.leader, self.declarers, self.misere, self.target)

    @property
    def declarers_mask(self) -> int:
        """The declarer side as a bitmask, bit ``seat`` set for each declarer."""
        mask = 0
        for seat in self.declarers:
            mask |= 1 << seat
        return mask

    def kernel_target(self, n_cards: int) -> int:
        """The target as the kernels take it: -1 for none, else ``target`` (0..``n_cards``).

        Parameters
        ----------
        n_cards : int
            The cards in each hand of the deals asked about: the tricks to play.

        Returns
        -------
        int
            -1 or the target.

        Raises
        ------
        DealError
            If the target is more than ``n_cards`` tricks.
        """
        if self.target is None:
            return -1
        if self.target > n_cards:
            raise DealError(f"invalid target {self.target!r}: expected 0..{n_cards} tricks")
        return self.target


def _check_target(target: Any) -> int | None:
    if target is None:
        return None
    if isinstance(target, bool | np.bool_) or not isinstance(target, int | np.integer):
        raise DealError(f"invalid target {target!r}: expected an int of tricks")
    if target < 0:
        raise DealError(f"invalid target {target!r}: expected 0 or more tricks")
    return int(target)


def _check_subset(subset: Any) -> npt.NDArray[np.int64] | None:
    if subset is None:
        return None
    arr = np.asarray(subset)
    if arr.ndim != 1 or (arr.size and not np.issubdtype(arr.dtype, np.integer)):
        raise DealError(
            f"invalid question subset of shape {arr.shape} and dtype {arr.dtype}: "
            "expected a one-dimensional array of deal indices"
        )
    return arr.astype(np.int64, copy=False)


_PLAIN = (str, int, type(None))


@functools.lru_cache(maxsize=256, typed=True)
def _cached_question(
    trump: str | int | None,
    leader: str | int,
    declarers: str | int,
    misere: bool,
    target: int | None,
) -> Question:
    return Question(trump, leader, declarers, misere, target)


def question_of(
    trump: str | int | None,
    leader: str | int,
    declarers: DeclarersLike,
    misere: bool = False,
    target: int | None = None,
) -> Question:
    """``Question(trump, leader, declarers, misere, target)``, cached for plain arguments.

    The single-deal calls (:func:`~solo_analysis.solver.solve`) ask the same few questions
    many times: where every argument is a ``str``, an ``int`` or ``None`` (and ``misere`` a
    ``bool``) the parsed question is kept, keyed by the arguments and their types (so
    ``True`` is never taken for ``1``); other arguments are parsed each time.  Errors are
    raised as by :class:`Question`, every time.
    """
    if (
        type(trump) in _PLAIN
        and type(leader) in _PLAIN
        and type(declarers) in _PLAIN
        and type(misere) is bool
        and type(target) in _PLAIN
    ):
        return _cached_question(trump, leader, declarers, misere, target)  # type: ignore[arg-type]
    return Question(trump, leader, declarers, misere, target)
