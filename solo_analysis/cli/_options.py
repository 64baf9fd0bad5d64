"""Options shared by several commands: the play model's, and the search budget per question."""

from __future__ import annotations

import click

__all__ = ["play_options", "question_budget"]


def play_options(
    play: str, worlds: int | None, prior: str | None, compare: bool = False
) -> dict[str, object]:
    """The options of the realistic play model from ``--worlds`` and ``--prior``.

    They apply where that model plays: ``--play pimc``, or ``--compare-play`` (``compare``).

    Raises
    ------
    click.UsageError
        ``--worlds`` or ``--prior`` where no realistic play model plays.
    """
    options: dict[str, object] = {}
    if worlds is not None:
        options["worlds"] = worlds
    if prior is not None:
        options["prior"] = prior
    if options and play.lower() != "pimc" and not compare:
        flag = "--worlds" if worlds is not None else "--prior"
        raise click.UsageError(f"{flag} applies to --play pimc (or --compare-play) only")
    return options


def question_budget(max_question_positions: int | None) -> int | None:
    """The search positions per question from ``--max-question-positions``.

    Not given: the library's default (:data:`~solo_analysis.advice.DEFAULT_MAX_QUESTION_POSITIONS`);
    0: no limit (``None``, every answer exact).

    Raises
    ------
    click.UsageError
        A negative number.
    """
    from ..advice import DEFAULT_MAX_QUESTION_POSITIONS

    if max_question_positions is None:
        return DEFAULT_MAX_QUESTION_POSITIONS
    if max_question_positions < 0:
        raise click.UsageError(
            "--max-question-positions must be 0 (no limit) or a positive number, "
            f"got {max_question_positions}"
        )
    return max_question_positions or None
