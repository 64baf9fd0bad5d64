"""Card, hand and deal notation.

Encoding (the only place it is defined; everything else imports these names)
----------------------------------------------------------------------------
card
    An ``int`` 0..51, ``code = suit * 13 + rank``.

    * ``suit`` 0..3 = spades, hearts, diamonds, clubs (PBN order S H D C),
      see :data:`SUITS` / :data:`SUIT_SYMBOLS`.
    * ``rank`` 0..12 = 2, 3, ..., 9, T (ten), J, Q, K, A, see :data:`RANKS`.

    So 0 is the two of spades, 12 the ace of spades, 51 the ace of clubs.
hand
    A bitmask ``int`` with bit ``code`` set for every card held (``< 2**52``).
    The 13-bit mask of suit ``s`` is ``(mask >> (13 * s)) & 0x1FFF``
    (:data:`SUIT_MASK`), bit ``rank`` set for each rank held.
    :class:`Hand` wraps such a mask for users.
seat
    An ``int`` 0..3 = N, E, S, W, clockwise (:data:`SEATS`); the next player
    to the left of seat ``i`` is ``(i + 1) % 4``.
trump
    An ``int`` 0..4: 0=S, 1=H, 2=D, 3=C (same as the suit codes), 4=NT
    (:data:`NT`, no trump).  See :func:`parse_trump`.
card order
    ``Hand.codes`` and the arrays of :meth:`Hand.to_array` / :meth:`Deal.to_array`
    list cards in PBN reading order: spades first, each suit high to low.  This is
    *not* numeric order of the codes (spades have the lowest codes).

Notation
--------
Every notation has a parser and a printer that round-trip:
:func:`parse_card` / :func:`card_str`, :meth:`Hand.parse` / ``str(hand)``,
:meth:`Deal.from_pbn` / :meth:`Deal.to_pbn`, and ``repr()`` of a :class:`Hand` or
:class:`Deal` evaluates back to an equal object.  Bad input raises a subclass of
:class:`~solo_analysis.errors.SoloAnalysisError` (a ``ValueError``) whose one-line
message quotes the input.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from .errors import (
    CardCountError,
    CardError,
    DealError,
    DuplicateCardError,
    HandError,
    SeatError,
    TrumpError,
)

__all__ = [
    "SUITS",
    "RANKS",
    "SEATS",
    "SUIT_SYMBOLS",
    "SUIT_NAMES",
    "SEAT_NAMES",
    "NT",
    "N_CARDS",
    "SUIT_MASK",
    "FULL_MASK",
    "HCP",
    "make_card",
    "card_suit",
    "card_rank",
    "parse_card",
    "card_str",
    "parse_suit",
    "parse_seat",
    "seat_str",
    "parse_trump",
    "trump_str",
    "cards_from_text",
    "Hand",
    "Deal",
]

SUITS = "SHDC"  # suit code 0..3 = spades, hearts, diamonds, clubs (PBN order)
RANKS = "23456789TJQKA"  # rank index 0..12; T = ten
SEATS = "NESW"  # seat code 0..3, clockwise
SUIT_SYMBOLS = "♠♥♦♣"  # same order as SUITS
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SEAT_NAMES = ("north", "east", "south", "west")
NT = 4  # trump code for no trump; 0..3 are the suit codes
N_CARDS = 13  # cards in a full hand
SUIT_MASK = 0x1FFF  # 13 bits: one suit of a hand mask
FULL_MASK = (1 << 52) - 1  # all 52 cards
HCP = (0,) * 9 + (1, 2, 3, 4)  # high-card points by rank index: J=1 Q=2 K=3 A=4

_RED_SUITS = frozenset((1, 2))  # hearts, diamonds
_RED = "#c00000"

# Anything that may stand for a suit, after normalisation maps onto SUITS letters.
_SYMBOL_TO_LETTER = {
    "♠": "S", "♤": "S",
    "♥": "H", "♡": "H",
    "♦": "D", "♢": "D",
    "♣": "C", "♧": "C",
}  # fmt: skip
_VARIATION_SELECTORS = frozenset("\ufe0e\ufe0f")  # emoji / text presentation of ♠ etc.
_SEPARATORS = frozenset(" \t\r\n\f\v,;:")
_SPLIT_RE = re.compile(r"[\s,;]+")

_SEAT_ALIASES = {name: i for i, name in enumerate(SEAT_NAMES)} | {
    letter: i for i, letter in enumerate(SEATS.lower())
}
_TRUMP_ALIASES: dict[str, int] = {}
for _i, (_letter, _name, _symbols) in enumerate(
    zip(SUITS, SUIT_NAMES, ("♠♤", "♥♡", "♦♢", "♣♧"), strict=True)
):
    for _alias in (_letter.lower(), _name, _name[:-1], *_symbols):
        _TRUMP_ALIASES[_alias] = _i
for _alias in ("nt", "n", "notrump", "notrumps", "no-trump", "no-trumps", "no trump",
               "no trumps", "no_trump", "none"):  # fmt: skip
    _TRUMP_ALIASES[_alias] = NT
del _i, _letter, _name, _symbols, _alias


# ---------------------------------------------------------------------------
# cards


def make_card(suit: int, rank: int) -> int:
    """Return the card code of ``rank`` (0..12) in ``suit`` (0..3).

    Raises
    ------
    CardError
        If ``suit`` or ``rank`` is out of range.
    """
    if not (0 <= suit < 4 and 0 <= rank < 13):
        raise CardError(
            f"no card with suit {suit!r} and rank {rank!r}: expected suit 0..3, rank 0..12"
        )
    return suit * 13 + rank


def card_suit(code: int) -> int:
    """Return the suit (0..3 = S H D C) of a card code (not validated)."""
    return code // 13


def card_rank(code: int) -> int:
    """Return the rank index (0..12 = 2..A) of a card code (not validated)."""
    return code % 13


def _normalise(text: str) -> str:
    """Map suit symbols to letters, upper-case ASCII only, drop variation selectors.

    Non-ASCII characters other than suit symbols are kept as they are (and are
    rejected later): ``str.upper`` would turn e.g. the ligature ``"ﬆ"`` into ``"ST"``.
    """
    out = []
    for ch in text:
        if ch in _VARIATION_SELECTORS:
            continue
        letter = _SYMBOL_TO_LETTER.get(ch)
        if letter is not None:
            out.append(letter)
        elif ch.isascii():
            out.append(ch.upper())
        else:
            out.append(ch)
    return "".join(out)


def _check_code(code: Any, context: str = "") -> int:
    """Return ``code`` as an int 0..51 or raise CardError."""
    if isinstance(code, bool | np.bool_):
        raise CardError(f"invalid card code {code!r}{context}: expected an int 0..51")
    try:
        value = operator.index(code)
    except TypeError:
        raise CardError(f"invalid card code {code!r}{context}: expected an int 0..51") from None
    if not 0 <= value < 52:
        raise CardError(f"invalid card code {code!r}{context}: expected an int 0..51")
    return value


def parse_card(text: str) -> int:
    """Parse one card.

    Parameters
    ----------
    text : str
        Rank then suit or suit then rank, any case: ``"AS"``, ``"SA"``, ``"10H"``,
        ``"H10"``, ``"th"``, ``"♠A"``, ``"A♠"``, ``"7♡"``.  The ten is ``10`` or
        ``T``; suits are letters ``SHDC`` or symbols ``♠♥♦♣`` / ``♤♡♢♧``.
        Surrounding whitespace is ignored.

    Returns
    -------
    int
        The card code 0..51.

    Raises
    ------
    CardError
        If the text is not a card (unknown rank, unknown suit, or malformed).
    """
    if not isinstance(text, str):
        raise CardError(f"expected card text such as 'AS' or '10H', got {text!r}")
    s = _normalise(text.strip())
    if not 2 <= len(s) <= 3:
        raise CardError(
            f"malformed card {text!r}: expected a rank and a suit such as 'AS' or '10H'"
        )
    if s[0] in SUITS:
        suit, rank_text = s[0], s[1:]
    elif s[-1] in SUITS:
        suit, rank_text = s[-1], s[:-1]
    elif (s[0] in RANKS and len(s) > 1) or (s[:2] == "10" and len(s) > 2):
        bad = s[2:] if s[:2] == "10" else s[1:]
        raise CardError(
            f"unknown suit {bad!r} in card {text!r}: expected one of S H D C or ♠ ♥ ♦ ♣"
        )
    else:
        raise CardError(
            f"malformed card {text!r}: expected a rank and a suit such as 'AS' or '10H'"
        )
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS:
        raise CardError(
            f"unknown rank {rank_text!r} in card {text!r}: expected one of 2-9, T or 10, J, Q, K, A"
        )
    return SUITS.index(suit) * 13 + RANKS.index(rank_text)


def card_str(code: int, symbols: bool = False) -> str:
    """Format a card code.

    Parameters
    ----------
    code : int
        Card code 0..51.
    symbols : bool, default False
        ``False``: rank then suit letter, ten as ``T`` (``"AS"``, ``"TH"``, ``"2C"``).
        ``True``: rank then suit symbol, ten as ``10`` (``"A♠"``, ``"10♥"``).

    Returns
    -------
    str
        Text that :func:`parse_card` reads back to ``code``.

    Raises
    ------
    CardError
        If ``code`` is not an int 0..51.
    """
    value = _check_code(code)
    suit, rank = divmod(value, 13)
    if symbols:
        return ("10" if rank == 8 else RANKS[rank]) + SUIT_SYMBOLS[suit]
    return RANKS[rank] + SUITS[suit]


def parse_suit(text: str | int) -> int:
    """Parse a suit: ``"S"``, ``"spades"``, ``"spade"``, ``"♠"``, ``"h"``, ... or an int 0..3.

    Returns
    -------
    int
        0..3 = S H D C.

    Raises
    ------
    CardError
        If the text names no suit.
    """
    if isinstance(text, int | np.integer) and not isinstance(text, bool | np.bool_):
        if 0 <= text < 4:
            return int(text)
        raise CardError(f"invalid suit {text!r}: expected 0..3 or one of S H D C")
    if isinstance(text, str):
        value = _TRUMP_ALIASES.get(_normalise(text.strip()).lower())
        if value is not None and value != NT:
            return value
    raise CardError(f"unknown suit {text!r}: expected one of S H D C, ♠ ♥ ♦ ♣ or a suit name")


# ---------------------------------------------------------------------------
# seats and trumps


def parse_seat(text: str | int) -> int:
    """Parse a seat: ``"N"``, ``"n"``, ``"north"``, ``"E"``, ... or an int 0..3.

    Returns
    -------
    int
        0..3 = N E S W.

    Raises
    ------
    SeatError
        If the text names no seat.
    """
    if isinstance(text, int | np.integer) and not isinstance(text, bool | np.bool_):
        if 0 <= text < 4:
            return int(text)
        raise SeatError(f"invalid seat {text!r}: expected 0..3 or one of N E S W")
    if isinstance(text, str):
        value = _SEAT_ALIASES.get(text.strip().lower())
        if value is not None:
            return value
    raise SeatError(f"unknown seat {text!r}: expected one of N E S W or north, east, south, west")


def seat_str(seat: int) -> str:
    """Return the letter (``"N"``, ``"E"``, ``"S"``, ``"W"``) of seat 0..3.

    Raises
    ------
    SeatError
        If ``seat`` is not an int 0..3.
    """
    if (
        isinstance(seat, int | np.integer)
        and not isinstance(seat, bool | np.bool_)
        and 0 <= seat < 4
    ):
        return SEATS[int(seat)]
    raise SeatError(f"invalid seat {seat!r}: expected an int 0..3")


def parse_trump(text: str | int | None) -> int:
    """Parse a trump suit or no trump.

    Parameters
    ----------
    text : str, int or None
        A suit (``"S"``, ``"spades"``, ``"spade"``, ``"♠"``, ``"h"``, ...), no trump
        (``None``, ``"NT"``, ``"N"``, ``"notrump"``, ``"no-trump"``, ``"none"``, any
        case) or a trump code 0..4.

    Returns
    -------
    int
        Trump code: 0=S, 1=H, 2=D, 3=C, 4=NT.

    Raises
    ------
    TrumpError
        If the text names no suit and is not a no-trump spelling.
    """
    if text is None:
        return NT
    if isinstance(text, int | np.integer) and not isinstance(text, bool | np.bool_):
        if 0 <= text <= NT:
            return int(text)
        raise TrumpError(f"invalid trump {text!r}: expected 0..4 (0=S 1=H 2=D 3=C 4=NT)")
    if isinstance(text, str):
        value = _TRUMP_ALIASES.get(_normalise(text.strip()).lower())
        if value is not None:
            return value
    raise TrumpError(f"unknown trump {text!r}: expected a suit (S H D C, ♠ ♥ ♦ ♣, spades...) or NT")


def trump_str(trump: int) -> str:
    """Return ``"S"``, ``"H"``, ``"D"``, ``"C"`` or ``"NT"`` for trump code 0..4.

    Raises
    ------
    TrumpError
        If ``trump`` is not an int 0..4.
    """
    if (
        isinstance(trump, int | np.integer)
        and not isinstance(trump, bool | np.bool_)
        and 0 <= trump <= NT
    ):
        return "NT" if trump == NT else SUITS[int(trump)]
    raise TrumpError(f"invalid trump {trump!r}: expected an int 0..4 (0=S 1=H 2=D 3=C 4=NT)")


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
                    f"unexpected suit {ch!r} in {what} {text!r}: the PBN form S.H.D.C holds ranks only"
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


def _parse_codes(text: str, what: str = "hand") -> list[int]:
    """Parse any accepted hand / card-list notation into codes in order of appearance.

    Duplicates are *not* checked here.
    """
    if not isinstance(text, str):
        raise HandError(f"expected {what} text, got {text!r}")
    s = _normalise(text.strip())
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
    # Looks like a list of cards with a bad one: report that card.
    raise CardError(f"{card_error} (in {what} {text!r})") from None


def _first_duplicate(codes: Iterable[int]) -> int | None:
    seen: set[int] = set()
    for code in codes:
        if code in seen:
            return code
        seen.add(code)
    return None


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
    codes = _parse_codes(text, "card list")
    dup = _first_duplicate(codes)
    if dup is not None:
        raise DuplicateCardError(f"duplicate card {card_str(dup)!r} in card list {text!r}")
    return codes


# ---------------------------------------------------------------------------
# Hand


def _order_key(code: int) -> int:
    """Sort key for PBN reading order: spades first, each suit high to low."""
    suit, rank = divmod(code, 13)
    return suit * 13 + 12 - rank


def _mask_codes(mask: int) -> tuple[int, ...]:
    codes = []
    for suit in range(4):
        bits = (mask >> (13 * suit)) & SUIT_MASK
        for rank in range(12, -1, -1):
            if bits >> rank & 1:
                codes.append(suit * 13 + rank)
    return tuple(codes)


def _suit_ranks_text(bits: int, ten: str = "T") -> str:
    return "".join(
        (ten if rank == 8 else RANKS[rank]) for rank in range(12, -1, -1) if bits >> rank & 1
    )


def _hand_html_parts(hand: Hand) -> list[str]:
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

    __slots__ = ("_mask", "_codes")

    _mask: int
    _codes: tuple[int, ...]

    def __init__(self, codes: Iterable[int] | str = ()) -> None:
        if isinstance(codes, str):
            text = codes
            codes = _parse_codes(text)
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
            value = _check_code(code, context)
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
        codes = _parse_codes(text)
        dup = _first_duplicate(codes)
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
        return '<span style="font-family:monospace">' + " ".join(_hand_html_parts(self)) + "</span>"


def _check_count(hand: Hand, n_cards: int | None, text: str) -> None:
    n = len(hand)
    if n_cards is None:
        if n > N_CARDS:
            raise CardCountError(f"hand {text!r} has {n} cards, expected at most {N_CARDS}")
    elif n != n_cards:
        raise CardCountError(f"hand {text!r} has {n} cards, expected {n_cards}")


# ---------------------------------------------------------------------------
# Deal

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
                f"malformed deal {text!r}: expected 4 hands in PBN suit-dot form after the first seat, "
                f"found {len(parts)}"
            )
        hands: list[Hand | None] = [None] * 4
        for i, part in enumerate(parts):
            seat = (first + i) % 4
            if "." not in part:
                raise DealError(
                    f"malformed hand {part!r} for {SEATS[seat]} in deal {text!r}: expected PBN suit-dot form "
                    f"such as 'AKQ.JT9.876.5432'"
                )
            try:
                codes = _parse_pbn_suits(_normalise(part), part, "hand")
            except (CardError, HandError) as exc:
                raise type(exc)(f"{exc} (seat {SEATS[seat]} in deal {text!r})") from None
            dup = _first_duplicate(codes)
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
                f"expected an int array of shape (4, k), got shape {a.shape} dtype {a.dtype}: {_short(arr)}"
            )
        if a.size and (a.min() < 0 or a.max() > 51):
            raise CardError(f"card codes must be 0..51 in deal array {_short(arr)}")
        hands = []
        for seat in range(4):
            row = [int(x) for x in a[seat]]
            dup = _first_duplicate(row)
            if dup is not None:
                raise DuplicateCardError(
                    f"duplicate card {card_str(dup)!r} in {SEATS[seat]}'s hand in deal array {_short(arr)}"
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
            lines = "<br>".join(_hand_html_parts(self._hands[seat]))
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
                f"card {card_str(code)!r} is in both {SEATS[other]}'s and {SEATS[seat]}'s hands{where}"
            )
        seen |= hand.mask
