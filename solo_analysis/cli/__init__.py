"""The ``solo-analysis`` command line.

Sub-commands live in their own modules and are imported only when invoked
(a lazy click group), so ``solo-analysis --help`` starts fast and numba is
loaded only by the commands that need it.

Every input error is reported as one line on stderr with a non-zero exit
status, never a traceback.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from ..errors import SoloAnalysisError

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


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="solo-analysis")
def cli() -> None:
    """Solo Whist analysis: double-dummy solving, deal sampling and bidding advice."""


def fail(message: str, code: int = 2) -> None:
    """Print ``message`` as one line on stderr and exit with ``code``."""
    one_line = " ".join(str(message).split())
    click.echo(f"solo-analysis: error: {one_line}", err=True)
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run the CLI, turning every error into one line."""
    try:
        cli.main(args=argv, prog_name="solo-analysis", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.Abort:
        fail("aborted", 130)
    except click.ClickException as exc:
        fail(exc.format_message(), exc.exit_code)
    except SoloAnalysisError as exc:
        fail(str(exc), 2)
    except KeyboardInterrupt:
        fail("interrupted", 130)
    except BrokenPipeError:
        sys.exit(1)
    sys.exit(0)


if __name__ == "__main__":  # pragma: no cover
    main()
