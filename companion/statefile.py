"""Reading a board state file (FORMATS.md §4) for the commands, with one-line errors.

Shared by every command that takes ``STATE.json`` (or ``-`` for stdin), so they
all word their errors alike.
"""

from __future__ import annotations

import json
import sys

from companion.board import Board, InvalidStateError
from companion.errors import UsageError


def load_state(path: str) -> Board:
    """Read and parse a board state from ``path`` (``-`` = stdin), with one-line errors."""
    name = "stdin" if path == "-" else repr(path)
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        raise UsageError(f"cannot read state file {name}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InvalidStateError(f"state file {name} is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidStateError(
            f"state file {name} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    return Board.from_json(data)
