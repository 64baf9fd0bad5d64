"""Deals: four hands of equal size at seats N, E, S, W, read and written in PBN.

A :class:`Deal` holds the hands of seats 0..3 (N, E, S, W; in play order eldest, second,
third, dealer), each the same number of cards; it parses PBN deal text and arrays of card
codes, and ``repr()`` of it evaluates back to an equal deal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from .cards import N_CARDS, SEATS, card_str, parse_seat
from .errors import CardCountError, CardError, DealError, DuplicateCardError, HandError, SeatError
from .hand import Hand, canonical_pbn_mask, first_duplicate, hand_html_parts, parse_pbn_hand

__all__ = ["Deal"]


_PBN_TAG_RE = re.compile(r'^\s*\[\s*deal\s+"(.*)"\s*\]\s*$', re.IGNORECASE | re.DOTALL)


class Deal:
    """Four hands at seats N, E, S, W, each holding the same number of cards.

    Parameters
    ----------
    hands : sequence of 4 Hand, or str
        The hands of N, E, S, W in that order (anything :class:`Hand` accepts),
        or PBN deal text as for :meth:`from_pbn` (so ``repr`` evaluates back).

    Raises
    ------
    DealError
        If there are not exactly four hands.
    CardCountError
        If the hands hold different numbers of cards, or none, or more than 13.
    DuplicateCardError
        If a card is in two hands (the message names the card and both seats).

    Examples
    --------
    >>> d = Deal.from_pbn("N:AKQ.JT9.876.5432 JT9.876.5432.AKQ 876.5432.AKQ.JT9 5432.AKQ.JT9.876")
    >>> d["n"] == d[0], d.n_cards
    (True, 13)
    >>> d.to_pbn(first="E")[:19]
    'E:JT9.876.5432.AKQ '
    """

    __slots__ = ("_hands",)

    _hands: tuple[Hand, Hand, Hand, Hand]

    def __init__(self, hands: Sequence[Hand | Iterable[int] | str] | str) -> None:
        if isinstance(hands, str):
            built = Deal.from_pbn(hands)._hands
        else:
            try:
                items = list(hands)
            except TypeError:
                raise DealError(
                    f"expected 4 hands (N, E, S, W) or PBN text, got {hands!r}"
                ) from None
            if len(items) != 4:
                raise DealError(f"expected 4 hands (N, E, S, W), got {len(items)}: {hands!r}")
            built = tuple(h if isinstance(h, Hand) else Hand(h) for h in items)  # type: ignore[assignment]
            _validate_deal(built, None)
        object.__setattr__(self, "_hands", built)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Deal is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Deal is immutable: cannot delete {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Deal, (self._hands,))

    @classmethod
    def _unchecked(cls, hands: tuple[Hand, Hand, Hand, Hand]) -> Deal:
        deal = cls.__new__(cls)
        object.__setattr__(deal, "_hands", hands)
        return deal

    # -- constructors -------------------------------------------------------

    @classmethod
    def from_pbn(cls, text: str) -> Deal:
        """Parse a PBN deal.

        Parameters
        ----------
        text : str
            ``"N:h1 h2 h3 h4"``: the first seat (``N``, ``E``, ``S`` or ``W``, any
            case), a colon, then four hands in PBN suit-dot form
            (``"AKQ.JT9.876.5432"``) for that seat and the next ones clockwise.
            Without the ``"X:"`` prefix the first hand is North's.  A whole PBN tag
            ``[Deal "N:..."]`` is accepted too.

        Returns
        -------
        Deal

        Raises
        ------
        DealError
            If the text does not hold four hands in suit-dot form.
        SeatError
            If the first seat is unknown.
        CardError, HandError, DuplicateCardError, CardCountError
            As for :meth:`Hand.parse` and :class:`Deal`.
        """
        if not isinstance(text, str):
            raise DealError(
                f"expected PBN deal text such as 'N:AKQ.JT9.876.5432 ...', got {text!r}"
            )
        body = text
        tag = _PBN_TAG_RE.match(body)
        if tag:
            body = tag.group(1)
        first = 0
        if ":" in body:
            prefix, body = body.split(":", 1)
            try:
                first = parse_seat(prefix)
            except SeatError:
                raise SeatError(
                    f"unknown first seat {prefix.strip()!r} in deal {text!r}: expected N, E, S or W"
                ) from None
        parts = body.split()
        if len(parts) != 4:
            raise DealError(
                f"malformed deal {text!r}: expected 4 hands in PBN suit-dot form "
                f"after the first seat, found {len(parts)}"
            )
        hands: list[Hand | None] = [None] * 4
        for i, part in enumerate(parts):
            seat = (first + i) % 4
            mask = canonical_pbn_mask(part)
            if mask is not None:
                hands[seat] = Hand.from_mask(mask)
                continue
            if "." not in part:
                raise DealError(
                    f"malformed hand {part!r} for {SEATS[seat]} in deal {text!r}: "
                    "expected PBN suit-dot form such as 'AKQ.JT9.876.5432'"
                )
            try:
                codes = parse_pbn_hand(part, "hand")
            except (CardError, HandError) as exc:
                raise type(exc)(f"{exc} (seat {SEATS[seat]} in deal {text!r})") from None
            dup = first_duplicate(codes)
            if dup is not None:
                raise DuplicateCardError(
                    f"duplicate card {card_str(dup)!r} in {SEATS[seat]}'s hand in deal {text!r}"
                )
            hands[seat] = Hand(codes)
        built: tuple[Hand, Hand, Hand, Hand] = tuple(hands)  # type: ignore[assignment]
        _validate_deal(built, text)
        return cls._unchecked(built)

    @classmethod
    def from_array(cls, arr: Any) -> Deal:
        """Build a deal from an int array of shape ``(4, k)``: rows are N, E, S, W.

        Each row holds the card codes of one hand in any order; ``1 <= k <= 13``.

        Raises
        ------
        DealError
            If the array is not an integer array of shape ``(4, k)``.
        CardError
            If a code is outside 0..51.
        DuplicateCardError, CardCountError
            As for :class:`Deal`.
        """
        a = np.asarray(arr)
        if (
            a.ndim != 2
            or a.shape[0] != 4
            or not (np.issubdtype(a.dtype, np.integer) or (a.size == 0 and a.dtype == np.float64))
        ):
            raise DealError(
                f"expected an int array of shape (4, k), "
                f"got shape {a.shape} dtype {a.dtype}: {_short(arr)}"
            )
        if a.size and (a.min() < 0 or a.max() > 51):
            raise CardError(f"card codes must be 0..51 in deal array {_short(arr)}")
        hands = []
        for seat in range(4):
            row = [int(x) for x in a[seat]]
            dup = first_duplicate(row)
            if dup is not None:
                raise DuplicateCardError(
                    f"duplicate card {card_str(dup)!r} in {SEATS[seat]}'s hand "
                    f"in deal array {_short(arr)}"
                )
            hands.append(Hand(row))
        built: tuple[Hand, Hand, Hand, Hand] = tuple(hands)  # type: ignore[assignment]
        _validate_deal(built, None)
        return cls._unchecked(built)

    @classmethod
    def random(cls, seed: int | np.random.Generator | None = None) -> Deal:
        """A uniformly random full deal (13 cards each).

        Parameters
        ----------
        seed : int, numpy Generator or None
            Seed for :func:`numpy.random.default_rng` (``None``: fresh entropy).
        """
        rng = np.random.default_rng(seed)
        perm = rng.permutation(52).reshape(4, 13)
        return cls._unchecked(tuple(Hand(row) for row in perm))  # type: ignore[arg-type]

    # -- views --------------------------------------------------------------

    @property
    def hands(self) -> tuple[Hand, Hand, Hand, Hand]:
        """The hands of N, E, S, W."""
        return self._hands

    @property
    def n_cards(self) -> int:
        """Cards per hand."""
        return len(self._hands[0])

    def to_pbn(self, first: str | int = "N") -> str:
        """PBN deal text, ``"N:AKQ.JT9.876.5432 ..."``, starting at seat ``first``.

        Raises
        ------
        SeatError
            If ``first`` is not a seat.
        """
        start = parse_seat(first)
        return f"{SEATS[start]}:" + " ".join(str(self._hands[(start + i) % 4]) for i in range(4))

    def to_array(self) -> np.ndarray:
        """Card codes as an ``int8`` array of shape ``(4, n_cards)``, rows N, E, S, W.

        Each row is in :attr:`Hand.codes` order.
        """
        return np.array([h.codes for h in self._hands], dtype=np.int8).reshape(4, self.n_cards)

    def __getitem__(self, seat: str | int) -> Hand:
        """The hand at ``seat``: ``"N"``, ``"e"``, ``"south"`` or 0..3."""
        return self._hands[parse_seat(seat)]

    def __iter__(self) -> Iterator[Hand]:
        return iter(self._hands)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Deal):
            return self._hands == other._hands
        return NotImplemented

    def __hash__(self) -> int:
        return hash((Deal, self._hands))

    def __str__(self) -> str:
        return self.to_pbn()

    def __repr__(self) -> str:
        return f"Deal({self.to_pbn()!r})"

    def _repr_html_(self) -> str:
        def cell(seat: int) -> str:
            lines = "<br>".join(hand_html_parts(self._hands[seat]))
            return (
                f'<td style="text-align:left;vertical-align:top;padding:2px 8px">'
                f"<b>{SEATS[seat]}</b><br>{lines}</td>"
            )

        empty = "<td></td>"
        rows = [
            empty + cell(0) + empty,
            cell(3) + empty + cell(1),
            empty + cell(2) + empty,
        ]
        return (
            '<table style="font-family:monospace;border-collapse:collapse">'
            + "".join(f"<tr>{r}</tr>" for r in rows)
            + "</table>"
        )


def _short(obj: Any, limit: int = 200) -> str:
    """One-line repr of ``obj``, cut to ``limit`` characters (for array messages)."""
    text = " ".join(repr(obj).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _validate_deal(hands: tuple[Hand, ...], text: str | None) -> None:
    where = f" in deal {text!r}" if text is not None else ""
    counts = [len(h) for h in hands]
    if len(set(counts)) != 1:
        shown = ", ".join(f"{SEATS[i]}={n}" for i, n in enumerate(counts))
        raise CardCountError(f"hands hold different numbers of cards ({shown}){where}")
    if not 1 <= counts[0] <= N_CARDS:
        raise CardCountError(f"each hand holds {counts[0]} cards, expected 1..{N_CARDS}{where}")
    seen = 0
    for seat, hand in enumerate(hands):
        overlap = seen & hand.mask
        if overlap:
            code = (overlap & -overlap).bit_length() - 1
            other = next(i for i in range(seat) if hands[i].mask >> code & 1)
            raise DuplicateCardError(
                f"card {card_str(code)!r} is in both {SEATS[other]}'s "
                f"and {SEATS[seat]}'s hands{where}"
            )
        seen |= hand.mask
