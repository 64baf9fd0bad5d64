"""Hands and lists of cards: the notations a hand is written in, and the :class:`Hand`.

A hand can be written in PBN suit-dot form (``"AKQ.JT9.876.5432"``), as a list of cards
(``"AS KS 10H 2C"``, ``"♠A ♥10"``) or grouped by suit (``"S:AKQ H:JT9 D:876 C:5432"``);
:func:`parse_card_list` reads them all.  A :class:`Hand` is an immutable set of cards (a
52-bit mask inside) that prints as PBN, and ``repr()`` of it evaluates back to an equal hand.
Bad input raises a subclass of :class:`~solo_analysis.errors.SoloAnalysisError` (a
``ValueError``) whose one-line message quotes the input.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Iterator
from typing import Any, TypeAlias

import numpy as np

from .cards import (
    FULL_MASK,
    N_CARDS,
    RANKS,
    SUIT_MASK,
    SUIT_SYMBOLS,
    SUITS,
    card_code,
    card_str,
    check_code,
    normalise_text,
    parse_card,
    parse_suit,
)
from .errors import CardCountError, CardError, DuplicateCardError, HandError

__all__ = [
    "CardsLike",
    "Hand",
    "canonical_pbn_mask",
    "cards_from_text",
    "first_duplicate",
    "hand_html_parts",
    "parse_card_list",
    "parse_cards",
    "parse_hand",
    "parse_pbn_hand",
]

_SEPARATORS = frozenset(" \t\r\n\f\v,;:")
_SPLIT_RE = re.compile(r"[\s,;]+")
_RED_SUITS = frozenset((1, 2))  # hearts, diamonds
_RED = "#c00000"


# ---------------------------------------------------------------------------
# free text -> list of cards


def _rank_chars(part: str, suit: int, text: str, what: str) -> list[int]:
    """Parse a run of rank characters (``"AKQT9"``, ``"J10"``) of one suit."""
    codes = []
    i = 0
    while i < len(part):
        ch = part[i]
        if ch == "1" and part[i + 1 : i + 2] == "0":
            rank = 8
            i += 2
        elif ch in RANKS:
            rank = RANKS.index(ch)
            i += 1
        else:
            bad = "1" if ch == "1" else ch
            raise CardError(
                f"unknown rank {bad!r} in {what} {text!r}: expected 2-9, T or 10, J, Q, K, A"
            )
        codes.append(suit * 13 + rank)
    return codes


def _parse_pbn_suits(s: str, text: str, what: str) -> list[int]:
    """Parse the PBN suit-dot form ``S.H.D.C`` (already normalised)."""
    parts = s.split(".")
    if len(parts) != 4:
        raise HandError(
            f"malformed {what} {text!r}: expected 4 suits separated by 3 dots (S.H.D.C), "
            f"found {len(parts) - 1} dots"
        )
    codes: list[int] = []
    for suit, part in enumerate(parts):
        part = "".join(part.split())
        if part in ("", "-"):
            continue
        for ch in part:
            if ch in SUITS:
                raise HandError(
                    f"unexpected suit {ch!r} in {what} {text!r}: "
                    "the PBN form S.H.D.C holds ranks only"
                )
        codes.extend(_rank_chars(part, suit, text, what))
    return codes


def _parse_grouped(s: str, text: str, what: str) -> list[int]:
    """Parse suit-grouped text: ``S:AKQ H:JT9 D:- C:5432``, ``SAKQ HJT9``, ``S AKQ H JT9``."""
    codes: list[int] = []
    suit: int | None = None
    has_ranks = False
    void = False
    i = 0
    while i < len(s):
        ch = s[i]
        if ch in _SEPARATORS:
            i += 1
        elif ch in SUITS:
            suit, has_ranks, void = SUITS.index(ch), False, False
            i += 1
        elif ch == "-":
            if suit is None or has_ranks or void:
                raise HandError(
                    f"malformed {what} {text!r}: '-' (void) must follow a suit with no ranks"
                )
            void = True
            i += 1
        elif suit is None:
            raise HandError(
                f"malformed {what} {text!r}: expected PBN 'AKQ.JT9.876.5432', cards 'AS KS 10H', "
                f"or suits 'S:AKQ H:JT9 D:876 C:5432'"
            )
        else:
            j = i
            while j < len(s) and s[j] not in _SEPARATORS and s[j] not in SUITS and s[j] != "-":
                j += 1
            if void:
                raise HandError(f"malformed {what} {text!r}: ranks after a '-' (void) suit")
            codes.extend(_rank_chars(s[i:j], suit, text, what))
            has_ranks = True
            i = j
    return codes


def parse_card_list(text: str, what: str = "hand") -> list[int]:
    """Parse any accepted hand or card-list notation into codes, in order of appearance.

    The notations are those of :meth:`Hand.parse`; ``what`` names the
    text in error messages.  Duplicates are *not* checked here (:func:`first_duplicate`).

    Raises
    ------
    CardError, HandError
        If a card or the text is malformed.
    """
    if not isinstance(text, str):
        raise HandError(f"expected {what} text, got {text!r}")
    s = normalise_text(text.strip())
    if not s:
        return []
    if "." in s:
        return _parse_pbn_suits(s, text, what)
    tokens = [t for t in _SPLIT_RE.split(s) if t]
    codes: list[int] = []
    for token in tokens:
        try:
            codes.append(parse_card(token))
        except CardError as exc:
            card_error = exc
            break
    else:
        return codes
    if s[0] in SUITS:
        return _parse_grouped(s, text, what)
    # Looks like a list of cards with a bad one: report that card, and the dotted form if the
    # text is four groups of ranks ("AKQJT9 AK AK2 32").
    raise CardError(f"{card_error} (in {what} {text!r}){_dotted_hint(s)}") from None


_RANK_GROUP = re.compile(r"(?:10|[2-9TJQKA])+|-")


def _dotted_hint(s: str) -> str:
    """``"; did you mean 'A.B.C.D' ..."`` if ``s`` is four groups of ranks, else ``""``."""
    groups = [g for g in re.split(r"[\s,;/|]+", s) if g]
    if len(groups) != 4 or not all(_RANK_GROUP.fullmatch(g) for g in groups):
        return ""
    dotted = ".".join("" if g == "-" else g for g in groups)
    return f"; did you mean {dotted!r} (suits separated by dots)?"


def first_duplicate(codes: Iterable[int]) -> int | None:
    """The first code that appears a second time in ``codes``, or ``None``."""
    seen: set[int] = set()
    for code in codes:
        if code in seen:
            return code
        seen.add(code)
    return None


#: a hand in canonical PBN suit-dot form: upper-case ranks, ``T`` for the ten, no spaces
_CANONICAL_PBN_RE = re.compile(r"[2-9TJQKA]*\.[2-9TJQKA]*\.[2-9TJQKA]*\.[2-9TJQKA]*")
_RANK_BITS = {ch: 1 << rank for rank, ch in enumerate(RANKS)}


def canonical_pbn_mask(text: str) -> int | None:
    """The card mask of a hand in canonical PBN suit-dot form, or ``None``.

    The fast path of PBN parsing: ``"AKQ.JT9.876.5432"`` (upper-case ranks, ``T`` for the
    ten, no spaces, no card twice) gives its mask; any other text gives ``None``, and
    :func:`parse_pbn_hand` then parses it and names what is wrong.
    """
    if _CANONICAL_PBN_RE.fullmatch(text) is None:
        return None
    mask = 0
    for suit, ranks in enumerate(text.split(".")):
        for ch in ranks:
            mask |= _RANK_BITS[ch] << (13 * suit)
    if mask.bit_count() != len(text) - 3:
        return None  # a card twice
    return mask


def parse_pbn_hand(text: str, what: str = "hand") -> list[int]:
    """Parse one hand in PBN suit-dot form (``"AKQ.JT9.876.5432"``) into codes.

    ``what`` names the text in error messages; duplicates are not checked.

    Raises
    ------
    CardError, HandError
        If a card or the text is malformed.
    """
    return _parse_pbn_suits(normalise_text(text), text, what)


def cards_from_text(text: str) -> list[int]:
    """Parse a free list of cards, e.g. exposed cards or a constraint.

    Parameters
    ----------
    text : str
        Any notation :meth:`Hand.parse` accepts, without a card-count limit:
        ``"AS KS 10H 2C"``, ``"SA, SK, H10"``, ``"♠A ♥10"``, ``"S:AK H:10"``,
        ``"AK.T..2"``.  Empty text gives an empty list.

    Returns
    -------
    list of int
        Card codes in the order they appear in the text.

    Raises
    ------
    CardError
        If a card has an unknown rank or suit.
    HandError
        If the text is malformed.
    DuplicateCardError
        If a card appears twice.
    """
    codes = parse_card_list(text, "card list")
    dup = first_duplicate(codes)
    if dup is not None:
        raise DuplicateCardError(f"duplicate card {card_str(dup)!r} in card list {text!r}")
    return codes


# ---------------------------------------------------------------------------
# Hand


def _mask_codes(mask: int) -> tuple[int, ...]:
    """The codes of a mask's cards, suit by suit, each suit highest first."""
    codes = []
    for suit in range(4):
        bits = (mask >> (13 * suit)) & SUIT_MASK
        while bits:
            rank = bits.bit_length() - 1
            codes.append(suit * 13 + rank)
            bits ^= 1 << rank
    return tuple(codes)


def _suit_ranks_text(bits: int, ten: str = "T") -> str:
    return "".join(
        (ten if rank == 8 else RANKS[rank]) for rank in range(12, -1, -1) if bits >> rank & 1
    )


def hand_html_parts(hand: Hand) -> list[str]:
    """A hand's four suits as HTML snippets (the red suits' symbols in red), for Jupyter."""
    parts = []
    for suit in range(4):
        ranks = _suit_ranks_text(hand.suit_mask(suit), ten="10") or "\u2014"
        symbol = SUIT_SYMBOLS[suit]
        if suit in _RED_SUITS:
            symbol = f'<span style="color:{_RED}">{symbol}</span>'
        parts.append(f"{symbol}&#8239;{ranks}")
    return parts


class Hand:
    """An immutable set of distinct cards, usually one player's hand.

    Parameters
    ----------
    codes : iterable of int, or str
        Card codes 0..51 in any order, or hand text (anything :meth:`Hand.parse`
        reads; with text, any count 0..13 is accepted, which makes ``repr`` evaluate
        back).  A ``Hand`` built from codes or a mask may hold any number of cards;
        the text parsers limit it to 13.

    Raises
    ------
    CardError
        If a code is not an int 0..51.
    DuplicateCardError
        If a card appears twice.

    Examples
    --------
    >>> h = Hand.parse("AKQ.JT9.876.5432")
    >>> h
    Hand('AKQ.JT9.876.5432')
    >>> h.lengths(), h.hcp(), "AS" in h
    ((3, 3, 3, 4), 10, True)
    """

    __slots__ = ("_codes", "_mask")

    _mask: int
    _codes: tuple[int, ...]

    def __init__(self, codes: Iterable[int] | str = ()) -> None:
        if isinstance(codes, str):
            text = codes
            codes = parse_card_list(text)
            self._init_codes(codes, f" in hand {text!r}")
            _check_count(self, None, text)
        else:
            if isinstance(codes, Hand):
                codes = codes.codes
            try:
                items = list(codes)
            except TypeError:
                raise HandError(
                    f"expected an iterable of card codes or hand text, got {codes!r}"
                ) from None
            self._init_codes(items, "")

    def _init_codes(self, codes: Iterable[Any], context: str) -> None:
        mask = 0
        for code in codes:
            value = check_code(code, context)
            bit = 1 << value
            if mask & bit:
                raise DuplicateCardError(
                    f"duplicate card {card_str(value)!r}{context or ' in hand'}"
                )
            mask |= bit
        object.__setattr__(self, "_mask", mask)
        object.__setattr__(self, "_codes", _mask_codes(mask))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Hand is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Hand is immutable: cannot delete {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Hand.from_mask, (self._mask,))

    # -- constructors -------------------------------------------------------

    @classmethod
    def from_mask(cls, mask: int) -> Hand:
        """Build a hand from a 52-bit mask (bit ``code`` set for each card held).

        Raises
        ------
        HandError
            If ``mask`` is not an int in ``0 .. 2**52 - 1``.
        """
        try:
            value = operator.index(mask)
        except TypeError:
            raise HandError(
                f"invalid hand mask {mask!r}: expected an int 0 <= mask < 2**52"
            ) from None
        if isinstance(mask, bool | np.bool_) or not 0 <= value <= FULL_MASK:
            raise HandError(f"invalid hand mask {mask!r}: expected an int 0 <= mask < 2**52")
        hand = cls.__new__(cls)
        object.__setattr__(hand, "_mask", value)
        object.__setattr__(hand, "_codes", _mask_codes(value))
        return hand

    @classmethod
    def parse(cls, text: str, n_cards: int | None = N_CARDS) -> Hand:
        """Parse a hand.

        Parameters
        ----------
        text : str
            Any of (any case, ten as ``10`` or ``T``, suits as letters or symbols
            ``♠♥♦♣``/``♤♡♢♧``):

            * PBN suit-dot form, spades.hearts.diamonds.clubs, a void empty or ``-``:
              ``"AKQ.JT9.876.5432"``, ``"AKQJT98765432..."``, ``"-.AK.-.2"``;
            * a list of cards, space and/or comma separated, rank-suit or
              suit-rank: ``"AS KS 10H 2C"``, ``"SA, SK, H10, C2"``, ``"♠A ♥10"``;
            * suit-grouped, any suit order, a missing suit is void, ``-`` a void:
              ``"S:AKQ H:JT9 D:876 C:5432"``, ``"♠AKQ ♥JT9 ♦876 ♣5432"``,
              ``"S AKQ H JT9 D - C 5432"``.
        n_cards : int or None, default 13
            Required number of cards; ``None`` accepts any count 0..13 (endings).

        Returns
        -------
        Hand

        Raises
        ------
        CardError
            If a card has an unknown rank or suit.
        HandError
            If the text is malformed.
        DuplicateCardError
            If a card appears twice.
        CardCountError
            If the hand does not hold ``n_cards`` cards (or more than 13).
        """
        if n_cards is not None and (
            isinstance(n_cards, bool) or not isinstance(n_cards, int) or not 0 <= n_cards <= N_CARDS
        ):
            raise HandError(f"invalid n_cards {n_cards!r}: expected None or an int 0..13")
        codes = parse_card_list(text)
        dup = first_duplicate(codes)
        if dup is not None:
            raise DuplicateCardError(f"duplicate card {card_str(dup)!r} in hand {text!r}")
        hand = cls(codes)
        _check_count(hand, n_cards, text)
        return hand

    # -- views --------------------------------------------------------------

    @property
    def mask(self) -> int:
        """The 52-bit mask: bit ``code`` set for each card held."""
        return self._mask

    @property
    def codes(self) -> tuple[int, ...]:
        """Card codes in PBN reading order: spades first, each suit high to low."""
        return self._codes

    def to_array(self) -> np.ndarray:
        """Card codes as an ``int8`` array, in the order of :attr:`codes`."""
        return np.array(self._codes, dtype=np.int8)

    def suit_mask(self, suit: int | str) -> int:
        """The 13-bit mask of one suit (bit ``rank`` set for each rank held).

        ``suit`` is 0..3 or suit text (``"S"``, ``"♠"``, ``"spades"``); raises
        :class:`CardError` for an unknown suit.
        """
        s = parse_suit(suit)
        return (self._mask >> (13 * s)) & SUIT_MASK

    def suit_length(self, suit: int | str) -> int:
        """Number of cards held in ``suit`` (0..3 or suit text)."""
        return self.suit_mask(suit).bit_count()

    def lengths(self) -> tuple[int, int, int, int]:
        """Suit lengths ``(spades, hearts, diamonds, clubs)``."""
        m = self._mask
        s, h, d, c = (((m >> (13 * s)) & SUIT_MASK).bit_count() for s in range(4))
        return (s, h, d, c)

    def ranks_in(self, suit: int | str) -> tuple[int, ...]:
        """Rank indices (0..12 = 2..A) held in ``suit``, high to low."""
        bits = self.suit_mask(suit)
        return tuple(rank for rank in range(12, -1, -1) if bits >> rank & 1)

    def hcp(self) -> int:
        """High-card points: A=4, K=3, Q=2, J=1."""
        total = 0
        for suit in range(4):
            bits = (self._mask >> (13 * suit)) & SUIT_MASK
            total += (
                4 * (bits >> 12 & 1) + 3 * (bits >> 11 & 1) + 2 * (bits >> 10 & 1) + (bits >> 9 & 1)
            )
        return total

    # -- protocols ----------------------------------------------------------

    def __len__(self) -> int:
        return len(self._codes)

    def __iter__(self) -> Iterator[int]:
        return iter(self._codes)

    def __contains__(self, card: object) -> bool:
        """``code in hand`` or ``"AS" in hand``; bad card text raises CardError."""
        if isinstance(card, str):
            return bool(self._mask >> parse_card(card) & 1)
        if isinstance(card, bool | np.bool_):
            return False
        try:
            value = operator.index(card)  # type: ignore[arg-type]
        except TypeError:
            return False
        return 0 <= value < 52 and bool(self._mask >> value & 1)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Hand):
            return self._mask == other._mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash((Hand, self._mask))

    def __str__(self) -> str:
        m = self._mask
        return ".".join(_suit_ranks_text((m >> (13 * s)) & SUIT_MASK) for s in range(4))

    def __repr__(self) -> str:
        return f"Hand({str(self)!r})"

    def _repr_html_(self) -> str:
        return '<span style="font-family:monospace">' + " ".join(hand_html_parts(self)) + "</span>"


def _check_count(hand: Hand, n_cards: int | None, text: str) -> None:
    n = len(hand)
    if n_cards is None:
        if n > N_CARDS:
            raise CardCountError(f"hand {text!r} has {n} cards, expected at most {N_CARDS}")
    elif n != n_cards:
        raise CardCountError(f"hand {text!r} has {n} cards, expected {n_cards}")


#: cards as the sampler and the advice accept them: a :class:`Hand`, card text, a card code,
#: or an iterable of codes and card texts
CardsLike: TypeAlias = "Hand | str | int | Iterable[str | int] | None"


def parse_cards(cards: CardsLike) -> list[int]:
    """Read cards given in any accepted form: their codes, in the order given.

    Parameters
    ----------
    cards : Hand, str, int, iterable of str or int, or None
        A :class:`Hand`; text in any notation of :meth:`Hand.parse` (no count limit); one
        card code 0..51; or an iterable of codes and card texts (``["AS", 11]``).  ``None``
        is no card.

    Returns
    -------
    list of int

    Raises
    ------
    CardError, HandError, DuplicateCardError
        Unreadable cards, or a card twice in one text.
    """
    if cards is None:
        return []
    if isinstance(cards, Hand):
        return list(cards.codes)
    if isinstance(cards, str):
        return cards_from_text(cards)
    if isinstance(cards, int | np.integer) and not isinstance(cards, bool | np.bool_):
        return [check_code(cards)]
    if isinstance(cards, Iterable):
        return [card_code(c) for c in cards]
    raise CardError(f"cannot read cards from {cards!r}")


def parse_hand(hand: CardsLike) -> Hand:
    """A player's full hand of 13 cards, given in any form :func:`parse_cards` reads.

    Raises
    ------
    CardError, HandError
        Unreadable cards.
    DuplicateCardError
        A card given twice.
    CardCountError
        Not 13 cards.
    """
    if isinstance(hand, str):
        return Hand.parse(hand)
    codes = parse_cards(hand)
    dup = first_duplicate(codes)
    if dup is not None:
        raise DuplicateCardError(f"duplicate card {card_str(dup)!r} in hand {hand!r}")
    if len(codes) != N_CARDS:
        raise CardCountError(f"hand {hand!r} has {len(codes)} cards, expected {N_CARDS}")
    return Hand(codes)
