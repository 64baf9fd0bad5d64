"""The entry point of the advice: :func:`advise`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..bidding.policy import BiddingPolicy
from ..cards import play_seat_str
from ..errors import ConstraintError, Interrupted, PolicyError, interrupt_behind, signal_of
from ..hand import Hand
from ..play import PlayModel
from ..play.questions import build_rows
from ..rules import RuleSet
from .passing import values_of_calls
from .request import (
    DEFAULT_MAX_POSITIONS,
    DEFAULT_MAX_QUESTION_POSITIONS,
    DEFAULT_MAX_SAMPLES,
    DEFAULT_TOLERANCE,
    Request,
)
from .result import Advice
from .sampling import Outcome, Sampling
from .table import recommend, summarise

__all__ = ["advise"]


def advise(
    hand: Hand | str,
    *,
    seat: str | int,
    turnup: str | int | None,
    rules: str | RuleSet = "classic",
    samples: int | None = None,
    seed: int | None = None,
    over: str | None = None,
    constraints: Any = None,
    tolerance: float = DEFAULT_TOLERANCE,
    max_samples: int = DEFAULT_MAX_SAMPLES,
    play_model: str | PlayModel = "double-dummy",
    play_options: Mapping[str, Any] | None = None,
    exact: bool | None = None,
    contracts: str | Iterable[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    max_question_positions: int | None = DEFAULT_MAX_QUESTION_POSITIONS,
    control_variates: bool = True,
    max_seconds: float | None = None,
    max_positions: int | None = DEFAULT_MAX_POSITIONS,
    stop_on: str = "rows",
    auction: Any = None,
    policy: BiddingPolicy | str | None = None,
    auction_evidence: bool = True,
) -> Advice:
    """Evaluate every contract of the rule set for one hand and recommend a bid.

    Parameters
    ----------
    hand : Hand or str
        The player's 13 cards (anything :meth:`Hand.parse` reads, e.g. ``"AKJ94.K83.Q72.65"``).
    seat : str or int
        ``"eldest"``, ``"second"``, ``"third"``, ``"dealer"`` (or N, E, S, W, or 0..3).
    turnup : str, int or None
        The turned-up card (``"7S"``, ``"♠7"``, a code); ``None`` only for a rule set without
        a turn-up.
    rules : str or RuleSet, default "classic"
        A preset name, a ``.toml`` path or a :class:`RuleSet`.
    samples : int, optional
        Use exactly this many deals, for every row.  Without it sampling is adaptive: a first
        batch of :data:`FIRST_BATCH` deals; after each batch a row (under ``stop_on="bid"``, a
        contract whose candidate row) reporting a 95 % half-width on ``p_make`` of at most
        ``tolerance`` stops, and the others go on to a next batch sized to bring the nearest of
        them to the tolerance (at most doubling the deals so far), until none is left,
        ``max_samples`` deals are used or the search has spent ``max_positions`` (or
        ``max_seconds``, if given).  Deals the solver gave up on (``max_question_positions``)
        widen a row's reported interval by about half their share of its deals: a row samples
        on until the widened interval fits where that widening is at most
        :data:`~solo_analysis.advice.sampling.WIDEN_SHARE` of the tolerance, else it stops on
        its sampling half-width.  The advice is ``converged`` only if every reported interval
        of those rows is within the tolerance.
    seed : int, optional
        Seed of the deal stream (``0 <= seed < 2**64``); ``None`` picks one at random and
        records it.
    over : str, optional
        The highest bid so far: only contracts ranking above it may be recommended.
    constraints : optional
        Conditions on the other hands, as for :class:`~solo_analysis.sampler.DealSampler`.
    tolerance : float, default 0.02
        Target half-width of the ``p_make`` intervals (adaptive sampling), in (0, 0.5].
    max_samples : int, default 2000
        Cap on the deals of an adaptive run.
    play_model : str or PlayModel, default "double-dummy"
        How each deal is played (a name of :data:`~solo_analysis.play.PLAY_MODELS`, or a
        model): ``"double-dummy"`` (every player sees every card) or ``"pimc"`` (realistic
        play: each player decides from what he can see, :class:`~solo_analysis.play.Pimc`).
    play_options : mapping, optional
        Options of the named model (:data:`~solo_analysis.play.PLAY_OPTIONS`), e.g.
        ``{"worlds": 32, "prior": "none"}`` for ``"pimc"``, whose ``seed`` defaults to the
        advice's.
    exact : bool, optional
        ``True``: count tricks on every row (trick distributions for all rows); ``None``: ask
        only whether contracts make, except where the rule set pays by the trick; ``False``:
        ask only whether contracts make (over/under-trick schemes then need ``exact``).
    contracts : str or iterable of str, optional
        Evaluate only these contracts (names or aliases); default every contract of the rule
        set.
    progress : callable, optional
        Called as ``progress(deals_done, deals_planned)`` as the work goes on: after every
        chunk of deals solved for every contract still open (:data:`PROGRESS_CHUNK` deals;
        under a ``max_positions`` cap, 16 to 128 as the cap nears), with
        ``deals_planned`` = ``samples``, or for adaptive sampling the ``max_samples`` cap (the
        run may stop earlier; the last call then has ``deals_done < deals_planned``).  Without a
        callback the deals are solved in whole batches; either way the results are the same.
    max_question_positions : int or None, default DEFAULT_MAX_QUESTION_POSITIONS
        Search positions the named play model may spend on one question of one deal before
        the deal is left out for that row (its intervals then cover both outcomes of such
        deals); ``None`` solves every deal exactly, however long it takes.  Ignored when
        ``play_model`` is a :class:`~solo_analysis.play.PlayModel` (it carries its own setting).
    control_variates : bool, default True
        Correct each estimate by the deals' features (the other hands' high-card points and
        suit lengths, :func:`~solo_analysis.stats.control.deal_features`), whose exact means
        are known: the same deals give narrower intervals, so adaptive sampling stops sooner.
        ``False``: plain rates with Wilson intervals; ``p_raw`` is always the plain rate.
    max_seconds : float, optional
        A time limit for adaptive sampling: after the first batch, each batch is cut to the
        deals that its predecessor's pace says fit in the time left, and sampling stops when
        none do (so the run overshoots by at most a batch's misprediction).  The intervals are
        then as wide as the deals solved allow and :attr:`Advice.stopped` is ``"max_seconds"``.
        A timed run depends on the machine's speed; ``seed=advice.seed,
        max_samples=advice.samples`` repeats it exactly.  Not with ``samples``.
    max_positions : int or None, default DEFAULT_MAX_POSITIONS
        A cap on the work of adaptive sampling, in search positions over all deals and
        questions (the play model's count; a model that does not count ignores it).  After the
        first batch, each batch is cut to the deals its predecessor's positions per deal say
        fit, and sampling stops when fewer than :data:`MIN_CUT_BATCH` do;
        :attr:`Advice.stopped` is then ``"max_positions"``.  Positions do not depend on the
        machine or the threads, so such a run repeats exactly from its seed.  ``None``: no cap
        (the tolerance or ``max_samples`` ends the run).  Ignored with ``samples``.
    stop_on : {"rows", "bid"}, default "rows"
        Which rows adaptive sampling brings to the tolerance.  ``"rows"``: every row solved on
        its own (each Prop and Cop partner, each trump suit of a declarer's choice), each
        stopping when it gets there; a derived row (``any``, ``best``) is then estimated over
        the deals all its source rows were solved on.
        ``"bid"``: only the rows the recommendation reads (the ``candidate`` column: Prop and
        Cop's ``any`` row, the ``best`` suit's row, a single-row contract's row), which needs
        far fewer deals; the other rows then report the wider intervals of the deals they got,
        and :attr:`Advice.converged` speaks of the candidate rows.  Not with ``samples``.
    auction : str or sequence of (seat, call), optional
        The calls so far, e.g. ``"eldest:prop second:pass"`` or ``[("eldest", "prop"),
        ("second", "pass")]`` (:class:`~solo_analysis.bidding.Auction`); ``seat`` must be the
        next to call.  Only the calls the rules allow now are evaluated and recommended: higher
        contracts, Cop (Prop and Cop with the proposer as partner) where an open Prop may be
        accepted, and pass, whose value :attr:`Advice.passing` measures (the rest of the
        auction played by the policy).  ``[]``: the first call of the hand.  Not with ``over``.
    policy : str or BiddingPolicy, optional
        The bidding policy the other players' calls are read with: ``None`` or ``"default"``
        (:func:`~solo_analysis.bidding.policy.default_policy`), the path of a policy file, or
        a :class:`~solo_analysis.bidding.policy.BiddingPolicy`.
    auction_evidence : bool, default True
        Condition the deals on the other players' calls: every deal is one on which the
        policy, given each other seat's hand, makes the calls that were made
        (:attr:`Advice.acceptance` is the share of drawn deals kept).  ``False``: the auction
        only says which calls are legal.

    Returns
    -------
    Advice

    Raises
    ------
    CardError, HandError, DuplicateCardError, CardCountError
        A bad hand or turn-up card.
    SeatError
        An unknown seat.
    TurnupError
        The turn-up contradicts the hand or seat, or is missing / present against the rule set.
    RuleSetError
        An unknown rule set.
    ContractError
        An unknown ``over`` contract or contract name.
    AuctionError
        An auction with a call out of turn, an unknown or illegal call, one that is over, or
        whose next caller is not ``seat``.
    PolicyError
        A policy file that cannot be read, or an auction (with the constraints) whose deals
        are too rare under the policy to sample (fewer than ``AUCTION_MIN_ACCEPTANCE`` of
        the deals drawn).
    PlayModelError
        An unknown play model or option, or a model that cannot count tricks asked for them
        (``exact=True``, or a rule set paying by the trick).
    AdviceError
        A bad ``samples``, ``max_samples``, ``tolerance``, ``exact``, ``max_question_positions``,
        ``control_variates``, ``max_seconds``, ``max_positions`` or ``stop_on``.
    ConstraintError, SamplingError
        From the sampler (a bad ``seed`` included).
    Interrupted
        On Ctrl-C (``KeyboardInterrupt``) or another interrupt while sampling, once the
        solver's workers stopped: a ``KeyboardInterrupt`` whose ``partial`` is the advice from
        the deals solved before it (``stopped == "interrupted"``, not ``converged``), or
        ``None`` if none was; also where numba turned the interrupt into a ``SystemError``
        (raised while it loaded or ran a compiled function on the calling thread).
    """
    request = Request.build(
        hand,
        seat=seat,
        turnup=turnup,
        rules=rules,
        samples=samples,
        seed=seed,
        over=over,
        constraints=constraints,
        tolerance=tolerance,
        max_samples=max_samples,
        play_model=play_model,
        play_options=play_options,
        exact=exact,
        contracts=contracts,
        max_question_positions=max_question_positions,
        control_variates=control_variates,
        max_seconds=max_seconds,
        max_positions=max_positions,
        stop_on=stop_on,
        auction=auction,
        policy=policy,
        auction_evidence=auction_evidence,
    )
    rows = build_rows(
        request.rules, request.seat, request.turnup_suit, request.only, request.cop_partner
    )
    sampling = Sampling(request, rows, progress)
    try:
        outcome = sampling.run()
        # inside an auction the advice also plays out passing (and proposing): interruptible
        return _advice(request, sampling, outcome)
    except ConstraintError as exc:
        if not request.evidence:
            raise
        assert request.auction is not None and request.policy is not None
        raise PolicyError(
            f"the deals that agree with the auction {request.auction.describe()!r} under "
            f"policy {request.policy.name!r} are too rare to sample ({exc}); "
            "auction_evidence=False (--no-auction-evidence) uses the auction for the legal "
            "calls only"
        ) from None
    except KeyboardInterrupt as exc:
        raise _interrupted(request, sampling, exc) from None
    except SystemError as exc:
        # a signal that reached numba while it loaded or ran compiled code on this thread
        interrupt = interrupt_behind(exc)
        if interrupt is None:
            raise
        raise _interrupted(request, sampling, interrupt) from None


def _interrupted(request: Request, sampling: Sampling, exc: KeyboardInterrupt) -> Interrupted:
    """The :class:`Interrupted` for ``exc``, with the advice of the deals solved before it."""
    partial = _partial_advice(request, sampling)
    detail = "" if partial is None else f"advice from the {partial.samples} deals solved"
    return Interrupted(signal_of(exc), partial, detail)


def _partial_advice(request: Request, sampling: Sampling) -> Advice | None:
    """The advice from the deals an interrupted run solved, if any (``None`` if it fails)."""
    if sampling.solved == 0:
        return None
    outcome = Outcome(sampling.solved, False, "interrupted", sampling.unresolved)
    try:
        return _advice(request, sampling, outcome)
    except Exception:  # an advice from a run cut anywhere is a courtesy, never an error
        return None


def _advice(request: Request, sampling: Sampling, outcome: Outcome) -> Advice:
    """The :class:`Advice` from the rows ``sampling`` solved and how its run ended."""
    rows = sampling.rows
    model = request.model
    table, distribution, payoffs, outcomes = summarise(
        rows, request.rules, request.seat, request.over, model.name, sampling.controls
    )
    if request.cop_partner is not None:  # Prop and Cop here is accepting the proposer's Prop
        cop = table["contract"] == "prop"
        table.loc[cop, "title"] = f"Cop (with {play_seat_str(request.cop_partner)})"
    ranges = {i: (float(r.values.min()), float(r.values.max())) for i, r in enumerate(rows)}
    rec, runner, close, margin = recommend(table, payoffs, ranges, sampling.controls)
    adaptive = request.samples is None
    call = "pass" if rec is None else str(rec["contract"])
    if rec is not None and request.cop_partner is not None and rec["contract"] == "prop":
        call = "cop"
    passing = proposing = None
    auction = request.auction
    if auction is not None and outcome.stopped != "interrupted":
        proposes = "prop" in auction.legal_calls() and (
            request.only is None or "prop" in request.only
        )
        values = values_of_calls(request, ["pass", "prop"] if proposes else ["pass"])
        passing = values[0]
        proposing = values[1] if proposes else None
    return Advice(
        hand=request.hand,
        seat=play_seat_str(request.seat),
        turnup=request.turnup,
        rules=request.rules,
        samples=outcome.total,
        seed=request.seed,
        play_model=model.name,
        play_note=model.note,
        table=table,
        distribution=distribution,
        recommendation=call,
        recommended=rec,
        runner_up=runner,
        close_call=close,
        margin=margin,
        outcomes=outcomes,
        over=None if request.over is None else request.over.name,
        tolerance=request.stopping.tolerance if adaptive else None,
        stop_on=request.stopping.stop_on if adaptive else None,
        converged=outcome.converged,
        unresolved=outcome.unresolved,
        max_question_positions=getattr(model, "max_positions", None),
        control_variates=sampling.controls is not None,
        stopped=outcome.stopped,
        max_seconds=request.stopping.max_seconds,
        positions=sampling.spent() if sampling.counts_positions else None,
        max_positions=(
            request.stopping.max_positions if adaptive and sampling.counts_positions else None
        ),
        auction=None if auction is None else auction.describe(),
        legal_calls=None if auction is None else tuple(auction.legal_calls()),
        policy=None if request.policy is None else request.policy.name,
        acceptance=sampling.sampler.acceptance_rate if request.evidence else None,
        passing=passing,
        proposing=proposing,
    )
