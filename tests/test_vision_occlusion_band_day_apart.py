"""By day a coloured light over the frame and the edge tiles beside it keeps the frame's and the walls' colours
apart; one surface over both (a hand) brings them together (vision.occlusion_band._lit_apart)."""

from __future__ import annotations

import numpy as np

from tests.test_vision_occlusion import M, _framed_board, _lattice_view
from vision.occlusion_band import _lit_apart, disturbed_inside, frame_band, longest_run
from vision.occlusion_config import OcclusionConfig
from vision.occlusion_lattice import light_seams

SHAPE = (2000, 2000)  # the whole band inside the photo
OVER_EDGE = (slice(0, M + 20), slice(M + 48, M + 200))  # the top frame and the tiles just inside it


def _run(pixels: np.ndarray, cfg: OcclusionConfig) -> int:
    """The frame-band run beside the top edge tiles whose outer corners (0, 1)-(0, 4) look foreign (their seams
    flattened, as a strong tint leaves them), the board inside otherwise quiet."""
    rect, (colours, _, _) = _lattice_view(pixels, np.zeros(8 * 7, dtype=bool))
    foreign = np.zeros((8, 8), dtype=bool)
    foreign[0, 1:5] = True
    near = disturbed_inside(set(), foreign)
    edge_light = (np.zeros(8 * 7, dtype=bool), lambda: light_seams(rect, cfg.seam_patch))  # by day
    return longest_run(frame_band(rect, SHAPE, cfg, lattice=(colours, foreign, near), edge_light=edge_light), near)


def test_a_coloured_light_over_frame_and_edge_corners_is_not_an_arm() -> None:
    image = _framed_board((70, 60, 60), seams=True).astype(np.float32)  # a dark grey frame, green walls
    lit = image.copy()
    lit[OVER_EDGE] += (10.0, 15.0, 110.0)  # a red LED's light added over both
    lit = lit.clip(0, 255).astype(np.uint8)
    assert _run(lit, OcclusionConfig(spill_apart=np.inf)) >= 2  # without the rule: "an arm over the edge"
    assert _run(lit, OcclusionConfig()) == 0


def test_a_hand_over_frame_and_edge_corners_still_counts() -> None:
    image = _framed_board((70, 60, 60), seams=True)
    hand = image.copy()
    hand[OVER_EDGE] = (120, 150, 210)  # one pale skin over the frame and on over the corners
    assert _run(hand, OcclusionConfig()) >= 2


def test_the_corner_must_be_foreign_brighter_tinted_the_segments_way_and_keep_its_seams() -> None:
    cfg = OcclusionConfig()
    index = 5  # a top segment: its edge tile corner is lattice point (0, 3)
    expected = np.zeros((4 * 14, 3), np.float32)
    expected[:] = (36.0, 31.0, 0.30)  # the dark grey frame's model (r, g shares, lightness)
    values = expected.copy()
    values[index] = (60.0, 22.0, 0.50)  # red light added: redder and brighter
    flags = np.zeros(4 * 14, dtype=bool)
    flags[index] = True
    colours = np.zeros((8, 8, 3), np.float32)
    colours[:] = (24.0, 57.0, 5.0)  # green walls
    colours[0, 3] = (40.0, 48.0, 6.5)  # tinted toward red, brighter, still far from the frame's red
    foreign = np.zeros((8, 8), dtype=bool)
    kept = np.ones((8, 8))  # every corner's seams as the board's median point's
    assert not _lit_apart(values, expected, flags, colours, foreign, cfg, lambda: kept)[index]  # _spilled's case
    foreign[0, 3] = True
    assert _lit_apart(values, expected, flags, colours, foreign, cfg, lambda: kept)[index]
    hidden = kept.copy()
    hidden[0, 3] = 0.2  # a surface of another colour over the corner (a phone's screen, its rim over the frame)
    assert not _lit_apart(values, expected, flags, colours, foreign, cfg, lambda: hidden)[index]
    darker = colours.copy()
    darker[0, 3, 2] = 4.0  # dimmer than the board's corners: something hides the light
    assert not _lit_apart(values, expected, flags, darker, foreign, cfg, lambda: kept)[index]
    same = colours.copy()
    same[0, 3, :2] = values[index, :2] + 1.0  # the corner of the segment's own colour: one surface over both
    assert not _lit_apart(values, expected, flags, same, foreign, cfg, lambda: kept)[index]
    away = colours.copy()
    away[0, 3, :2] = (18.0, 66.0)  # moved away from the segment's colour
    assert not _lit_apart(values, expected, flags, away, foreign, cfg, lambda: kept)[index]
    dim = values.copy()
    dim[index, 2] = 0.25  # the segment darker than its model: light taken, not added
    assert not _lit_apart(dim, expected, flags, colours, foreign, cfg, lambda: kept)[index]


def test_a_corner_of_the_tile_area_is_judged_by_colour_alone() -> None:
    """The tile area's corner point holds one tile's corner and no seam between tiles: its seams say nothing."""
    cfg = OcclusionConfig()
    index = 13  # the last top segment: its edge tile corner is lattice point (0, 7), the tile area's corner
    expected = np.zeros((4 * 14, 3), np.float32)
    expected[:] = (36.0, 31.0, 0.30)
    values = expected.copy()
    values[index] = (60.0, 22.0, 0.50)
    flags = np.zeros(4 * 14, dtype=bool)
    flags[index] = True
    colours = np.zeros((8, 8, 3), np.float32)
    colours[:] = (24.0, 57.0, 5.0)
    colours[0, 7] = (40.0, 48.0, 6.5)
    foreign = np.zeros((8, 8), dtype=bool)
    foreign[0, 7] = True
    weak = np.ones((8, 8))
    weak[0, 7] = 0.3
    assert _lit_apart(values, expected, flags, colours, foreign, cfg, lambda: weak)[index]
