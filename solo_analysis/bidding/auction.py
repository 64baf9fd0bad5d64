"""The auction: who calls next, which calls the rules allow, and how it ends.

A call is ``"pass"``, ``"cop"`` (accepting another player's open Prop) or a contract of the
rule set's ladder.  :class:`Auction` replays a sequence of calls under the rule set's bidding
procedure (``RuleSet.auction``) and checks each one; :meth:`Auction.legal_calls` says what the
next player may call.

The procedures (``docs/rules.md`` names their documents):

``classic``
    Eldest hand calls first, then clockwise, round after round.  A call is a pass, which is
    final, a contract higher than the highest bid so far, or Cop, accepting a Prop that is the
    highest bid and that nobody has accepted yet.  A player who holds the highest bid (its
    declarer, or either partner of a Prop and Cop) is skipped until somebody overcalls.  The
    auction ends when nobody else is left to call: the highest bid is then the contract, a Prop
    nobody accepted throws the hand in, and so do four passes.
``french``
    As ``classic``, with the French card's two exceptions: an eldest hand who passed at his
    first call may still accept a Prop that was the only bid of the first round (he is asked
    once, when the first round is over), and a proposer whose Prop nobody accepted may raise it
    to Solo or higher (he is asked once, when everybody else has passed).

Seats are play-order codes 0..3 (eldest, second, third, dealer); any name
:func:`~solo_analysis.cards.parse_seat` reads is accepted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..cards import parse_seat, play_seat_str
from ..errors import AuctionError, ContractError, SeatError
from ..rules import Contract, RuleSet

__all__ = ["COP", "PASS", "Auction", "Call", "parse_auction", "parse_call"]

PASS = "pass"
COP = "cop"

_PASS_WORDS = {"pass", "p", "no-bid", "nobid", "-"}
_COP_WORDS = {"cop", "accept", "accepts", "c"}


@dataclass(frozen=True)
class Call:
    """One call of the auction: ``seat`` (0..3, play order) and ``call``.

    ``call`` is ``"pass"``, ``"cop"`` or a canonical contract name.
    """

    seat: int
    call: str

    def __str__(self) -> str:
        return f"{play_seat_str(self.seat)}:{self.call}"


def parse_call(text: str, rules: RuleSet) -> str:
    """The canonical form of one call: ``"pass"``, ``"cop"`` or a contract name of ``rules``.

    Raises
    ------
    AuctionError
        An unknown call, or a contract that is not in the rule set.
    """
    if not isinstance(text, str) or not text.strip():
        raise AuctionError(f"a call must be pass, cop or a contract name, got {text!r}")
    word = re.sub(r"[\s_]+", "-", text.strip().lower())
    if word in _PASS_WORDS:
        return PASS
    if word in _COP_WORDS:
        if not rules.prop:
            raise AuctionError(f"rule set {rules.name!r} plays without Prop and Cop: no cop")
        return COP
    try:
        return rules.contract(text).name
    except ContractError:
        raise AuctionError(
            f"unknown call {text!r}: expected pass, cop or a contract of rule set "
            f"{rules.name!r} ({', '.join(rules.contract_names)})"
        ) from None


def parse_auction(
    auction: str | Iterable[tuple[str | int, str] | Call] | None, rules: RuleSet
) -> list[Call]:
    """Read an auction: ``"eldest:prop second:pass"`` or ``[("eldest", "prop"), ...]``.

    In the text form, calls are separated by spaces or commas and each is ``seat:call`` (seats
    and calls in any spelling the rest of the library reads).  The calls are not checked
    against the rules here (see :class:`Auction`).

    Raises
    ------
    AuctionError
        A call that is not ``seat:call``, an unknown seat or call.
    """
    if auction is None:
        return []
    items: list[tuple[str | int, str]] = []
    if isinstance(auction, str):
        for token in re.split(r"[\s,;]+", auction.strip()):
            if not token:
                continue
            seat, sep, call = token.partition(":")
            if not sep or not seat or not call:
                raise AuctionError(
                    f"each call must be seat:call (e.g. 'eldest:prop second:pass'), got {token!r}"
                )
            items.append((seat, call))
    else:
        for item in auction:
            if isinstance(item, Call):
                items.append((item.seat, item.call))
                continue
            if not isinstance(item, tuple | list) or len(item) != 2:
                raise AuctionError(f"each call must be a (seat, call) pair, got {item!r}")
            items.append((item[0], item[1]))
    calls = []
    for seat, call in items:
        try:
            code = parse_seat(seat)
        except SeatError as err:
            raise AuctionError(f"unknown seat {seat!r} in the auction: {err}") from None
        calls.append(Call(code, parse_call(call, rules)))
    return calls


class Auction:
    """An auction replayed under a rule set's bidding procedure, every call checked.

    Parameters
    ----------
    rules : RuleSet
        Its ``auction`` option is the procedure; its ladder the contracts.
    calls : sequence of Call, str or pairs, optional
        The calls so far (see :func:`parse_auction`).

    Raises
    ------
    AuctionError
        A call out of turn, after the auction ended, or one the rules do not allow now; the
        message names it and says what was allowed.

    Examples
    --------
    >>> from solo_analysis.rules import load_rules
    >>> a = Auction(load_rules("classic"), "eldest:prop second:pass")
    >>> a.next_seat, a.legal_calls()[:4]
    (2, ['pass', 'cop', 'solo', 'misere'])

    Attributes
    ----------
    high : Contract or None
        The highest bid so far (None before any).
    holders : tuple of int
        Who holds it: its declarer, or the proposer and then the Cop of a Prop.
    passed : set of int
        The seats that have passed.
    next_seat : int or None
        The seat to call next; None once the auction is over.
    """

    def __init__(
        self,
        rules: RuleSet,
        calls: str | Iterable[tuple[str | int, str] | Call] | None = None,
    ) -> None:
        self.rules = rules
        self.calls: list[Call] = []
        self.high: Contract | None = None
        self.holders: tuple[int, ...] = ()
        self.passed: set[int] = set()
        self.next_seat: int | None = 0
        self._late_cop_done = False
        self._raise_done = False
        self._first_round_bids = 0
        for call in parse_auction(calls, rules):
            self.add(call)

    # ------------------------------------------------------------------ state
    @property
    def over(self) -> bool:
        """Whether the auction has ended (no one is left to call)."""
        return self.next_seat is None

    @property
    def open_prop(self) -> bool:
        """Whether the highest bid is a Prop nobody has accepted yet."""
        return self.high is not None and self.high.partnership and len(self.holders) == 1

    @property
    def proposer(self) -> int | None:
        """The seat that called an open Prop (None if there is none)."""
        return self.holders[0] if self.open_prop else None

    def result(self) -> tuple[Contract | None, tuple[int, ...]]:
        """The contract and its declarer side once the auction is over.

        ``(None, ())`` when the hand is thrown in (four passes, or a Prop nobody accepted).

        Raises
        ------
        AuctionError
            If the auction is not over.
        """
        if not self.over:
            raise AuctionError(
                f"the auction is not over: {play_seat_str(self.next_seat or 0)} is to call"
            )
        if self.high is None or self.open_prop:
            return None, ()
        return self.high, tuple(sorted(self.holders))

    def _late_cop_due(self) -> bool:
        """French card: eldest, who passed at once, may accept the first round's only bid."""
        return (
            self.rules.auction == "french"
            and not self._late_cop_done
            and 0 in self.passed
            and len(self.calls) >= 4
            and self.calls[0] == Call(0, PASS)
            and self._first_round_bids == 1
            and self.open_prop
        )

    def _raise_due(self) -> bool:
        """French card: a proposer nobody accepted may raise his Prop to Solo or higher."""
        return self.rules.auction == "french" and not self._raise_done and self.open_prop

    def _advance(self, last: int) -> None:
        """Find the next seat to call after ``last`` (None if the auction is over)."""
        if len(self.calls) == 4 and self._late_cop_due():
            self.next_seat = 0
            return
        for step in range(1, 5):
            seat = (last + step) % 4
            if seat in self.passed or seat in self.holders:
                continue
            self.next_seat = seat
            return
        # nobody but the holders left
        if self._raise_due() and self.proposer is not None and self.proposer not in self.passed:
            self.next_seat = self.proposer
            return
        self.next_seat = None

    def legal_calls(self) -> list[str]:
        """The calls the next player may make: ``"pass"``, maybe ``"cop"``, higher contracts.

        Empty once the auction is over.
        """
        seat = self.next_seat
        if seat is None:
            return []
        if seat in self.passed:  # the French late Cop: accept or pass, nothing else
            return [PASS, COP]
        calls = [PASS]
        if self.open_prop and self.proposer != seat:
            calls.append(COP)
        higher = [
            c.name for c in self.rules.contracts if self.high is None or c.rank > self.high.rank
        ]
        if seat in self.holders:  # the French raise: Solo or higher only
            higher = [name for name in higher if not self.rules.contract(name).partnership]
        return calls + higher

    def add(self, call: Call) -> None:
        """Record the next call, after checking it is in turn and allowed.

        Raises
        ------
        AuctionError
            See the class.
        """
        seat = self.next_seat
        shown = f"{play_seat_str(call.seat)}:{call.call}"
        if seat is None:
            raise AuctionError(f"{shown}: the auction is already over ({self.describe()})")
        if call.seat != seat:
            raise AuctionError(
                f"{shown} is out of turn: {play_seat_str(seat)} is to call "
                f"(after {self.describe()})"
            )
        legal = self.legal_calls()
        if call.call not in legal:
            if call.call == COP:
                why = "there is no open Prop of another player to accept"
            else:
                why = f"the highest bid is {self.high.name}" if self.high else "not allowed now"
            raise AuctionError(
                f"{shown} is not allowed: {why}; {play_seat_str(seat)} may call {', '.join(legal)}"
            )
        late = seat in self.passed
        raising = seat in self.holders
        self.calls.append(call)
        if len(self.calls) <= 4 and call.call != PASS:
            self._first_round_bids += 1
        if late:
            self._late_cop_done = True
        if raising:
            self._raise_done = True
        if call.call == PASS:
            self.passed.add(seat)
        elif call.call == COP:
            self.holders = (self.holders[0], seat)
            self.passed.discard(seat)
        else:
            self.high = self.rules.contract(call.call)
            self.holders = (seat,)
        self._advance(seat)

    def describe(self) -> str:
        """The calls so far as text (``"no calls yet"`` for none)."""
        return " ".join(str(c) for c in self.calls) or "no calls yet"

    def __repr__(self) -> str:
        return f"Auction({self.rules.name!r}, {self.describe()!r})"

    def copy(self) -> Auction:
        """An independent copy (to try calls on)."""
        other = Auction(self.rules)
        for call in self.calls:
            other.add(call)
        return other

    def then(self, calls: Sequence[Call]) -> Auction:
        """A copy with ``calls`` added."""
        other = self.copy()
        for call in calls:
            other.add(call)
        return other
