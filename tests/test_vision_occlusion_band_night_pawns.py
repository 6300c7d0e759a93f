"""At night the frame beside an edge square a pawn stands on is not judged (occlusion_band.beside_squares_unknown)."""

from __future__ import annotations

import numpy as np

from companion.board import FIXED_TILES
from companion.observation import TileReading
from vision.occlusion import signals
from vision.occlusion_band import beside_squares_unknown
from vision.rectify import Rectified

T, M = 48, 36
SHAPE = (2000, 2000)  # the whole band inside the photo


def _board() -> np.ndarray:
    """A rectified board of green walls inside a blue printed frame, with sensor noise."""
    side = 7 * T + 2 * M
    image = np.empty((side, side, 3), np.float32)
    image[:] = (70, 150, 200)
    image[M : M + 7 * T, M : M + 7 * T] = (40, 150, 60)
    return np.clip(image + np.random.default_rng(7).normal(0, 3, image.shape), 0, 255).astype(np.uint8)


def _view(pixels: np.ndarray) -> Rectified:
    square = np.array([[M, M], [M + 7 * T, M], [M + 7 * T, M + 7 * T], [M, M + 7 * T]], np.float64)
    return Rectified(image=pixels, tile_px=T, margin_px=M, homography=np.eye(3), corners=square)


def _readings(unclear: tuple[int, int]) -> list[TileReading]:
    """49 confident readings (the fixed tiles right) but ``unclear``."""
    return [
        TileReading(openings=FIXED_TILES.get(divmod(i, 7), 0b0101), confidence=0.2 if divmod(i, 7) == unclear else 0.9)
        for i in range(49)
    ]


def test_segments_beside_edge_squares_become_unknown() -> None:
    flags = np.zeros(56, dtype=np.int8)
    out = beside_squares_unknown(flags, [(0, 4), (6, 0), (3, 3)]).reshape(4, 14)
    assert (out[0, 8:10] == -1).all() and (out[0, :8] == 0).all() and (out[0, 10:] == 0).all()
    assert (out[2, 0:2] == -1).all() and (out[3, 12:14] == -1).all()  # the corner square touches two sides
    assert (out == -1).sum() == 6  # an inner square touches no side
    assert (beside_squares_unknown(flags, [(2, 6)]).reshape(4, 14)[1, 4:6] == -1).all()
    assert (flags == 0).all()  # the input is left alone


def test_at_night_a_light_on_the_frame_beside_a_pawn_on_the_edge_is_no_arm() -> None:
    image = _board()
    image[10:M, M + 4 * T : M + 5 * T] = (30, 235, 255)  # the top frame over (0, 4) lit warm
    rect = _view(image)
    box = (M + 4 * T + 12, M + 14, 24, 28)  # a pawn on (0, 4), its box inside the tile
    tiles = _readings((1, 4))  # the tile below it unclear
    bare = signals(rect, SHAPE, tiles, 0.99, lighting="night")
    assert bare.band_run >= 2  # nothing stands there: the run counts
    pawn = signals(rect, SHAPE, tiles, 0.99, covered={(0, 4)}, boxes=[box], lighting="night")
    assert pawn.band_run == 0
    day = signals(rect, SHAPE, tiles, 0.99, covered={(0, 4)}, boxes=[box])
    assert day.band_run >= 2  # by day the pawn's box alone is left out
