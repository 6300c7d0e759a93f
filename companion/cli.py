"""The ``labyrinth-companion`` command.

Each area registers its own sub-commands (``register(subparsers)`` in the
modules of :data:`COMMAND_MODULES`), so this file stays a thin composition
root: parse, dispatch, and turn user errors into one line + exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from companion import __version__
from companion.errors import USER_ERRORS

#: Modules that add sub-commands, with the commands each adds. Each module has
#: ``register(subparsers) -> None`` and sets ``func(args) -> int`` on its parsers.
#: Only the module of the command being run is imported, so ``analyze`` does
#: not pay for OpenCV; ``--help`` imports them all.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "companion.cli_analysis": ("analyze", "hint"),
    "companion.cli_game": ("run",),
    "companion.bench": ("bench",),
    "hardware.cli": ("leds",),
    "vision.cli": ("vision-test",),
    "vision.cli_render": ("render-photos",),
}


class _Parser(argparse.ArgumentParser):
    """argparse with exit code 2 and a one-line message for misuse (its default too, made explicit)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def _modules_for(argv: Sequence[str]) -> list[str]:
    """The command modules to import: the one owning the command in ``argv``, else all (for help and errors)."""
    command = next((a for a in argv if not a.startswith("-")), None)
    owners = [name for name, commands in COMMAND_MODULES.items() if command in commands]
    return owners or list(COMMAND_MODULES)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    parser = _Parser(
        prog="labyrinth-companion",
        description="Referee and light guide for the Labyrinth board game.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in _modules_for(sys.argv[1:] if argv is None else argv):
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # that area has not landed yet
                continue
            raise
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except USER_ERRORS as exc:
        print(f"labyrinth-companion {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
