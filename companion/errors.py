"""The project's error tree.

Every error a user can cause derives from :class:`CompanionError` *and* the
builtin it is, so callers can catch either. The command line turns these into
one line on stderr and exit code 2; anything else is a bug and keeps its
traceback.
"""

from __future__ import annotations

from companion.board import InvalidStateError


class CompanionError(Exception):
    """Root of the errors a user can cause (bad input, illegal actions, missing setup)."""


class UsageError(CompanionError, ValueError):
    """A command was called wrongly (bad option value, missing file)."""


class IllegalPushError(CompanionError, ValueError):
    """A push the rules forbid (the reverse of the previous push, a push out of turn)."""


class IllegalMoveError(CompanionError, ValueError):
    """A pawn move the rules forbid (not along open corridors, out of turn)."""


class ConfigError(CompanionError, ValueError):
    """The configuration file is missing, malformed or has a bad value."""


#: Errors the CLI reports as one line with exit code 2.
USER_ERRORS: tuple[type[BaseException], ...] = (CompanionError, InvalidStateError)

__all__ = [
    "USER_ERRORS",
    "CompanionError",
    "ConfigError",
    "IllegalMoveError",
    "IllegalPushError",
    "InvalidStateError",
    "UsageError",
]
