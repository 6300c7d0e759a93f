"""The colour pipeline: golden bytes, hand-checked cases and invariants over random frames."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import ConfigError
from hardware.colour import ColourSettings, apply_pipeline, estimate_current_ma, gamma_table, night_ok

GOLDEN = json.loads((Path(__file__).parent / "data" / "leds" / "pipeline.json").read_text())


@pytest.mark.parametrize("case", GOLDEN, ids=[c["name"] for c in GOLDEN])
def test_golden_bytes(case: dict) -> None:
    result = apply_pipeline(case["colours"], ColourSettings(**case["settings"]), night=case["night"])
    assert result.as_lists() == case["rgb"]
    assert result.data.hex() == case["data"]
    assert result.scaled == case["scaled"]
    assert result.current_ma == pytest.approx(case["current_ma"], abs=1e-3)


def test_hand_computed_defaults() -> None:
    # red at full: gamma keeps 255, the cap of 128 scales it to 128; GRB puts green first
    result = apply_pipeline([(255, 0, 0), (128, 128, 128)], ColourSettings())
    # 128 -> 255 * (128/255) ** 2.2 = 55.97 -> 56 -> 56 * 128/255 = 28.1 -> 28
    assert result.as_lists() == [[128, 0, 0], [28, 28, 28]]
    assert result.data == bytes([0, 128, 0, 28, 28, 28])
    assert result.current_ma == pytest.approx((128 + 3 * 28) / 765 * 55 + 2)


def test_colour_orders_permute_the_same_bytes() -> None:
    colours = [(200, 100, 50)]
    base = apply_pipeline(colours, ColourSettings(order="RGB")).data
    for order in ("GRB", "BGR", "RBG", "GBR", "BRG"):
        data = apply_pipeline(colours, ColourSettings(order=order)).data
        assert list(data) == [base["RGB".index(ch)] for ch in order]


def test_gamma_table_ends_and_monotone() -> None:
    table = gamma_table(2.2)
    assert table[0] == 0 and table[255] == 255
    assert (np.diff(table) >= 0).all()


def test_budget_scales_to_supply_limit() -> None:
    s = ColourSettings(max_level=255, supply_ma=2000)
    result = apply_pipeline([(255, 255, 255)] * 61, s)
    assert result.scaled
    # unscaled would be 61 * 55 + 61 = 3416 mA
    assert 1990 <= result.current_ma <= 2000
    assert estimate_current_ma(result.rgb, s) == result.current_ma


@pytest.mark.parametrize(
    "bad",
    [{"order": "RGBW"}, {"gamma": 0}, {"max_level": 300}, {"brightness": 1.5}, {"supply_ma": 0}, {"night_max": 17}],
)
def test_bad_settings_are_config_errors(bad: dict) -> None:
    with pytest.raises(ConfigError):
        ColourSettings(**bad)


def test_from_config_rejects_unknown_keys() -> None:
    assert ColourSettings.from_config({"order": "rgb"}).order == "RGB"
    with pytest.raises(ConfigError, match="brightnes"):
        ColourSettings.from_config({"brightnes": 0.5})


def test_bad_colour_shapes() -> None:
    with pytest.raises(ValueError):
        apply_pipeline([(1, 2)], ColourSettings())
    with pytest.raises(ValueError):
        apply_pipeline([(1, 2, float("nan"))], ColourSettings())
    assert apply_pipeline([], ColourSettings()).data == b""


frames = st.lists(st.tuples(*[st.integers(0, 255)] * 3), min_size=1, max_size=80)
colour_settings = st.builds(
    ColourSettings,
    order=st.sampled_from(["GRB", "RGB", "BGR"]),
    gamma=st.floats(1.0, 3.0),
    max_level=st.integers(0, 255),
    brightness=st.floats(0.0, 1.0),
    supply_ma=st.floats(100.0, 5000.0),
    night_max=st.integers(0, 16),
)


@settings(max_examples=150, deadline=None)
@given(frames, colour_settings)
def test_day_frames_stay_within_budget(colours: list, s: ColourSettings) -> None:
    result = apply_pipeline(colours, s)
    idle = s.idle_ma_per_led * len(colours)
    assert result.current_ma <= max(s.supply_ma, idle) + 1e-6
    assert (result.rgb <= s.max_level).all()


@settings(max_examples=150, deadline=None)
@given(frames, colour_settings)
def test_night_frames_obey_the_night_limits(colours: list, s: ColourSettings) -> None:
    result = apply_pipeline(colours, s, night=True)
    assert night_ok(result.rgb, s.night_max)
    assert night_ok(result.rgb)
    assert result.current_ma <= max(s.supply_ma, s.idle_ma_per_led * len(colours)) + 1e-6
