"""A white glare's pool over the board's frame fades from its centre: not an arm (vision.occlusion_band._glare_pool)."""

from __future__ import annotations

import numpy as np

from vision.occlusion import frame_band
from vision.occlusion_band import _glare_pool
from vision.occlusion_config import OcclusionConfig
from vision.occlusion_lattice import shade_invariant
from vision.rectify import Rectified

T, M = 48, 36
SHAPE = (2000, 2000)  # the whole band inside the photo
FRAME = (40, 75, 60)  # a dark olive printed frame (BGR), as the sixth renderer's


def _board() -> np.ndarray:
    side = 7 * T + 2 * M
    image = np.empty((side, side, 3), np.float32)
    image[:] = FRAME
    image[M : M + 7 * T, M : M + 7 * T] = (40, 150, 60)
    return image


def _view(pixels: np.ndarray) -> Rectified:
    square = np.array([[M, M], [M + 7 * T, M], [M + 7 * T, M + 7 * T], [M, M + 7 * T]], np.float64)
    noisy = np.clip(pixels + np.random.default_rng(7).normal(0, 3, pixels.shape), 0, 255).astype(np.uint8)
    return Rectified(image=noisy, tile_px=T, margin_px=M, homography=np.eye(3), corners=square)


def _top_segments(flags: np.ndarray) -> int:
    return int((flags[:14] == 1).sum())


def test_a_white_glare_pool_on_the_frame_is_not_an_arm_but_an_opaque_run_is() -> None:
    image = _board()
    xs = np.arange(image.shape[1], dtype=np.float64)
    centre = M + 1.5 * T  # over the first gate of the top side, fading over the plain frame on both sides of it
    light = 2.0 * np.exp(-0.5 * ((xs - centre) / (0.65 * T)) ** 2)  # linear light added
    glared = image.copy()
    warm = np.array([0.65, 0.85, 1.0])  # B, G, R gains of a warm lamp: off the line to white, yet near-white
    linear = (glared[:M] / 255.0) ** 2.2 + light[None, :, None] * warm
    glared[:M] = 255.0 * np.clip(linear, 0, 1) ** (1 / 2.2)
    without = frame_band(_view(glared), SHAPE, OcclusionConfig(pool_len=99))
    assert _top_segments(without) >= 3  # judged without the rule, the pool looks like an arm over the frame
    assert _top_segments(frame_band(_view(glared), SHAPE)) == 0
    # An opaque surface of the shoulder's colour, the same all along it (a plateau), still counts.
    card = image.copy()
    card[:M, M : M + 3 * T] = glared[:M, M + T // 2, None]
    assert _top_segments(frame_band(_view(card), SHAPE)) >= 3
    # Skin over the frame gains red far more than blue: not white, it counts whatever its profile.
    skin = image.copy()
    linear = (skin[:M] / 255.0) ** 2.2 + light[None, :, None] * np.array([0.15, 0.45, 1.0])
    skin[:M] = 255.0 * np.clip(linear, 0, 1) ** (1 / 2.2)
    assert _top_segments(frame_band(_view(skin), SHAPE)) >= 3


def _segments_lit(gains: dict[int, float], colour: tuple[float, float, float]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`frame_band`-order segment colours of a red frame (BGR) and its model: ``gains`` (segment -> linear
    light added, of ``colour``, B G R) over the print."""
    frame = (np.array([30.0, 30.0, 140.0]) / 255.0) ** 2.2
    lit = np.array([frame + gains.get(k, 0.0) * np.array(colour) for k in range(56)])
    pixels = 255.0 * np.clip(lit, 0, 1) ** (1 / 2.2)
    expected = shade_invariant(np.tile(255.0 * frame ** (1 / 2.2), (56, 1))[None])[0]
    return shade_invariant(pixels[None])[0], expected


def test_a_glare_pool_over_the_boards_corner_is_followed_round_it() -> None:
    """o41 (fresh sixth day 5451040): a white-pink haze peaking at the top-left corner of a red frame only falls
    off along each side (left segments 1, 0 then top 0-4 measured 0.15 0.30 | 0.55 0.61 0.53 0.33 0.16)."""
    cfg = OcclusionConfig()
    ring = [43, 42, 0, 1, 2, 3, 4]  # left side's segments 1, 0 (its top end), then the top side's 0-4
    profile = [0.15, 0.30, 0.55, 0.61, 0.53, 0.33, 0.16]
    flags = np.zeros(56, bool)
    flags[ring] = True
    known = np.ones(56, bool)
    values, expected = _segments_lit(dict(zip(ring, profile, strict=True)), (1.0, 0.85, 1.0))
    assert _glare_pool(values, expected, flags, known, cfg)[ring].all()
    # The same run the same all along it (an opaque plateau), or gaining skin's red, still counts.
    values, expected = _segments_lit(dict.fromkeys(ring, 0.5), (1.0, 0.85, 1.0))
    assert not _glare_pool(values, expected, flags, known, cfg).any()
    values, expected = _segments_lit(dict(zip(ring, profile, strict=True)), (0.15, 0.45, 1.0))
    assert not _glare_pool(values, expected, flags, known, cfg).any()
