"""Configuration tables (TOML) to settings dataclasses, with clear errors.

Every section of the configuration (``[leds]``, ``[painter]``, ...) maps onto a
frozen settings dataclass. :func:`settings_from_table` is the one place that
turns a table into one: an unknown key is an error naming the known ones (a
typo must not be silently ignored), a bad value an error naming the section.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, TypeVar

from companion.errors import ConfigError

T = TypeVar("T")


def settings_from_table(cls: type[T], data: Mapping[str, Any] | None, what: str) -> T:
    """Build the dataclass ``cls`` from a config table; ``what`` names it in errors (``"LED"``)."""
    table = dict(data or {})
    known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigError(f"unknown {what} setting {unknown[0]!r}; known: {', '.join(sorted(known))}")
    try:
        return cls(**table)
    except TypeError as exc:
        raise ConfigError(f"bad {what} settings: {exc}") from None
