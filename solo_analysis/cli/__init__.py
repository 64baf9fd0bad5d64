"""The ``solo-analysis`` command line.

Sub-commands live in their own modules and are imported only when invoked
(a lazy click group), so ``solo-analysis --help`` starts fast and numba is
loaded only by the commands that need it.

Every input error is reported as one line on stderr with a non-zero exit
status, never a traceback.  So is an interrupt: Ctrl-C (SIGINT) exits with 130 and
``solo-analysis: interrupted``, SIGTERM with 143 and ``solo-analysis: terminated``
(``128 + signal``, the shells' convention), after the solver's workers stopped
(:func:`~solo_analysis.solver.run_stoppable`) and what was finished was kept: the chunks of
a table run, and the advice from the deals solved (printed before the line).  A closed
output pipe ends a command quietly, with status 0 (``deal | head -1``).
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
from types import FrameType
from typing import Any

import click

from ..errors import Interrupted, SoloAnalysisError, interrupt_behind, signal_of

# command name -> "module:attribute" (relative to this package)
COMMANDS: dict[str, str] = {
    "advise": "advise_cmd:advise",
    "deal": "solve_cmd:deal",
    "leads": "solve_cmd:leads",
    "rules": "rules_cmd:rules",
    "score": "rules_cmd:score",
    "solve": "solve_cmd:solve",
    "table": "table_cmd:table",
}


class LazyGroup(click.Group):
    """A click group whose sub-commands are imported on first use."""

    def __init__(self, *args: Any, lazy: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name, the lazy ones included."""
        return sorted(set(super().list_commands(ctx)) | set(self._lazy))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command named ``cmd_name``, importing its module on first use."""
        if cmd_name in self._lazy:
            module_name, attr = self._lazy[cmd_name].split(":")
            module = importlib.import_module(f".{module_name}", __name__)
            command: click.Command = getattr(module, attr)
            return command
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the sub-command; an interrupt leaves as :class:`_Stopped`.

        click would turn a ``KeyboardInterrupt`` into ``Abort`` after printing an empty line
        on stderr: :func:`main` prints the one line itself.
        """
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:
            raise _Stopped(signal_of(exc), getattr(exc, "detail", "")) from None
        except BrokenPipeError:
            raise _PipeClosed from None


class _Stopped(Exception):
    """An interrupt on its way out of click (see :meth:`LazyGroup.invoke`)."""

    def __init__(self, signum: int, detail: str = "") -> None:
        super().__init__(signum, detail)
        self.signum = signum
        self.detail = detail


class _PipeClosed(Exception):
    """The reader of stdout went away (click would exit 1 on its own)."""


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="solo-analysis")
def cli() -> None:
    """Solo Whist analysis: double-dummy solving, deal sampling and bidding advice."""


def fail(message: str, code: int = 2) -> None:
    """Print ``message`` as one line on stderr and exit with ``code``."""
    one_line = " ".join(str(message).split())
    click.echo(f"solo-analysis: error: {one_line}", err=True)
    sys.exit(code)


def _terminate(signum: int, frame: FrameType | None) -> None:
    """The SIGTERM handler: stop the way Ctrl-C does."""
    raise Interrupted(signum)


def _stopped(signum: int, detail: str = "") -> None:
    """Print the one line of an interrupt (and what was kept) and exit with ``128 + signum``."""
    word = "terminated" if signum == signal.SIGTERM else "interrupted"
    more = f" ({' '.join(detail.split())})" if detail else ""
    click.echo(f"solo-analysis: {word}{more}", err=True)
    sys.exit(128 + signum)


def _signal_in(exc: BaseException) -> int | None:
    """The signal behind ``exc``, if an interrupt caused it, else ``None``.

    A signal's exception raised while numba loads or runs a compiled function comes out of
    it as a ``SystemError`` whose cause is the interrupt: the chain of causes tells
    (:func:`~solo_analysis.errors.interrupt_behind`).
    """
    interrupt = interrupt_behind(exc)
    return None if interrupt is None else signal_of(interrupt)


def _pipe_closed() -> None:
    """The reader of stdout went away: exit 0 without a word (nothing more can be shown).

    stdout is pointed at ``/dev/null`` first, so that Python's flush of it at exit does not
    fail again and print "Exception ignored".
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass
    sys.exit(0)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run the CLI, turning every error into one line."""
    try:
        previous = signal.signal(signal.SIGTERM, _terminate)
    except ValueError:  # not the main thread: SIGTERM keeps its handler
        previous = None
    try:
        cli.main(args=argv, prog_name="solo-analysis", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except _Stopped as exc:
        _stopped(exc.signum, exc.detail)
    except _PipeClosed:
        _pipe_closed()
    except click.Abort as exc:
        signum = _signal_in(exc)
        if signum is not None:
            _stopped(signum)
        fail("aborted", 130)
    except click.ClickException as exc:
        fail(exc.format_message(), exc.exit_code)
    except SoloAnalysisError as exc:
        fail(str(exc), 2)
    except BrokenPipeError:
        _pipe_closed()
    except Exception as exc:
        signum = _signal_in(exc)
        if signum is None:
            raise
        _stopped(signum)
    except KeyboardInterrupt as exc:
        _stopped(signal_of(exc))
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    sys.exit(0)


if __name__ == "__main__":  # pragma: no cover
    main()
