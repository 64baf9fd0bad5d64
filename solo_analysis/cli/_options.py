"""Options shared by several commands: the play model's."""

from __future__ import annotations

import click

__all__ = ["play_options"]


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
