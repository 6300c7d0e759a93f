"""Config tables become settings dataclasses; typos and bad values are named."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from companion.config import settings_from_table
from companion.errors import ConfigError


@dataclass(frozen=True)
class _Settings:
    gamma: float = 2.2
    order: str = "GRB"


def test_a_table_fills_the_dataclass_and_defaults_stay() -> None:
    assert settings_from_table(_Settings, {"gamma": 1.8}, "LED") == _Settings(gamma=1.8)
    assert settings_from_table(_Settings, None, "LED") == _Settings()


def test_an_unknown_key_names_the_known_ones() -> None:
    with pytest.raises(ConfigError, match=r"unknown LED setting 'gama'; known: gamma, order"):
        settings_from_table(_Settings, {"gama": 2.0}, "LED")
