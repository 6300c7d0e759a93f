"""A pawn on an edge square leans outward over the frame: its top is looked for past the tile area's edge."""

from __future__ import annotations

import numpy as np

from companion.board import Color, Tile
from companion.observation import TileReading
from vision.pawn_candidates import Candidate, Slender, _edge_band, _past_the_edge, candidates
from vision.pawns import find_pawns
from vision.rectify import Rectified

T, M = 48, 36
CORRIDOR = np.array([170.0, 200.0, 215.0])  # BGR: a pale beige corridor
WALL = np.array([120.0, 125.0, 130.0])
WOOD = np.array([60.0, 95.0, 130.0])  # the frame: a brown wood
RED = np.array([40.0, 40.0, 200.0])
FOOT = (M + 3 * T + T // 2, M + T // 6)  # on square (0, 3), a sixth of a tile from the frame


def _board(frame: np.ndarray) -> Rectified:
    """Tiles open N, E and S on a ``frame``-coloured border; on square (0, 3) a red pawn leaning over the frame.

    As seen from a camera over the board's middle: its foot on the square, its body drawn
    out upward (away from the nadir) over the frame, lit from the left (a lit and a shaded
    side), its shadow on the board to its right.
    """
    side = 2 * M + 7 * T
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float64)
    u, v = (xx - M) % T - T / 2.0, (yy - M) % T - T / 2.0
    corridor = ((np.abs(u) <= 0.2 * T) & (v <= 0.2 * T)) | ((np.abs(v) <= 0.2 * T) & (u >= -0.2 * T))
    image = np.where(corridor[..., None], CORRIDOR, WALL)
    area = (xx >= M) & (xx < M + 7 * T) & (yy >= M) & (yy < M + 7 * T)
    image[~area] = frame
    image += np.random.default_rng(5).normal(0.0, 3.0, image.shape)
    fx, fy = FOOT
    # The foot's disc and the body above it, reaching ~0.45 tile past the edge.
    length = 0.55 * T
    along = np.clip(yy, fy - length, fy)
    inside = np.hypot(xx - fx, yy - along) <= 0.2 * T
    shade = 1.0 - 0.5 * np.clip((xx - fx) / (0.2 * T) + 0.5, 0.0, 1.0)
    image[inside] = (RED * shade[..., None])[inside]
    shadow = (np.hypot(xx - fx - 8, yy - along) <= 0.2 * T + 2) & ~inside & area
    image[shadow] *= 0.6
    corners = np.array([[M, M], [M + 7 * T, M], [M + 7 * T, M + 7 * T], [M, M + 7 * T]], np.float32)
    return Rectified(np.clip(image, 0, 255).astype(np.uint8), T, M, np.eye(3), corners)


def _looks(rect: Rectified, camera: tuple[float, float] | None = None) -> tuple[list[Candidate], list[Slender]]:
    second: list[Slender] = []
    tiles = [TileReading(Tile.NES, 1.0)] * 49
    return candidates(rect, tiles, camera=camera, slender=second), second


def _red_on_square(cands: list[Candidate]) -> list[Candidate]:
    return [c for c in cands if c.color is Color.RED and M + 3 * T <= c.base[0] < M + 4 * T and M <= c.base[1] < M + T]


def _second(second: list[Slender]) -> list[Candidate]:
    """What the look past the edge finds in red (the other second looks left out)."""
    looks = [judge for color, judge in second if color is Color.RED and getattr(judge, "func", None) is _past_the_edge]
    assert looks
    return [cand for judge in looks if (cand := judge()) is not None]


def test_the_edge_band_is_the_frame_next_to_the_tile_area() -> None:
    band = _edge_band(_board(WOOD))
    assert band[M - 1, M + T] and band[M + 3, M - 5] and band[M + 7 * T, M + 7 * T]
    assert not band[M, M] and not band[M + 3 * T, M + 3 * T] and not band[0, 0]


def test_a_pawn_leaning_over_the_frame_is_found_with_its_top() -> None:
    first, second = _looks(_board(WOOD))
    # The tile area keeps only its foot; the second look has the foot and the top together.
    cut = max((c.area for c in _red_on_square(first)), default=0.0)
    found = _red_on_square(_second(second))
    assert len(found) == 1
    assert found[0].area > 2 * cut


def test_a_frame_of_the_pawns_colour_gives_no_body() -> None:
    _, second = _looks(_board(RED))
    assert not _red_on_square(_second(second))


def test_a_blob_crossing_the_edge_toward_the_nadir_is_no_leaning_body() -> None:
    # The camera stands beyond the top edge: a body on the top row leans inward, so a blob
    # crossing that edge outward is the frame's or a print's, not a body's top.
    _, second = _looks(_board(WOOD), camera=(FOOT[0], -4.0 * T))
    assert not _red_on_square(_second(second))


def test_at_night_no_colour_is_looked_for_past_the_edge() -> None:
    # At night the frame's band shows the LEDs' spill, not a lit pawn: the look is not asked for.
    second: list[Slender] = []
    candidates(_board(WOOD), [TileReading(Tile.NES, 1.0)] * 49, slender=second, look_past_edge=False)
    assert second and not [judge for _, judge in second if getattr(judge, "func", None) is _past_the_edge]


def test_find_pawns_reports_the_leaning_pawn_by_day_and_nothing_past_the_edge_at_night() -> None:
    # The same frame at night: the look past the edge (which alone finds this pawn, its foot cut
    # by the tile area) is not asked, so nothing of the frame's band is reported.
    rect, tiles = _board(WOOD), [TileReading(Tile.NES, 1.0)] * 49
    assert [(p.color, p.square) for p in find_pawns(rect, tiles)] == [(Color.RED, (0, 3))]
    assert find_pawns(rect, tiles, lighting="night") == []
