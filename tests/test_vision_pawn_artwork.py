"""Where a blob lies in its tiles' artwork: a picture printed in the corridor, or a body reaching over a wall."""

from __future__ import annotations

import numpy as np

from companion.board import Color, Tile
from companion.observation import TileReading
from vision.pawn_artwork import wall_reach, wall_zone
from vision.pawn_candidates import Candidate
from vision.pawn_model import FEATURES, PawnModel
from vision.pawns import _one_of_a_kind
from vision.rectify import Rectified

T, M = 48, 36
#: Every tile a T junction (corridor N, E, S): its centre is corridor, its west side wall.
TILES = [TileReading(Tile.NES, 1.0)] * 49


def _rect() -> Rectified:
    side = 7 * T + 2 * M
    corners = np.array([[M, M], [M + 7 * T, M], [M + 7 * T, M + 7 * T], [M, M + 7 * T]], np.float32)
    return Rectified(np.zeros((side, side, 3), np.uint8), T, M, np.eye(3), corners)


def _disc(color: Color, centre: tuple[float, float], index: int, labels: np.ndarray, logit: float) -> Candidate:
    """A round blob a third of a tile across at ``centre`` (rectified pixels), drawn into ``labels``."""
    yy, xx = np.mgrid[0 : labels.shape[0], 0 : labels.shape[1]]
    inside = np.hypot(xx - centre[0], yy - centre[1]) <= T / 6
    labels[inside] = index
    ys, xs = np.nonzero(inside)
    box = (int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1))
    row = tuple(logit if k == _GLINT else 0.0 for k in range(len(FEATURES)))
    return Candidate(color, row, centre, box, float(inside.sum()) / T**2, labels, index)


_GLINT = FEATURES.index("glint")
#: A model whose logit is the glint feature alone: rows choose their own confidence.
_MODEL = PawnModel.linear([1.0 if k == _GLINT else 0.0 for k in range(len(FEATURES))] + [0.0])


def _pair(logits: tuple[float, float]) -> list[Candidate]:
    """A blob at tile (3, 3)'s centre (a picture's place) and one over its west wall, sharing one label image."""
    rect = _rect()
    labels = np.zeros(rect.image.shape[:2], np.int32)
    centre = (M + 3.5 * T, M + 3.5 * T)
    over_wall = (M + 3.22 * T, M + 3.25 * T)
    return [_disc(Color.RED, centre, 1, labels, logits[0]), _disc(Color.RED, over_wall, 2, labels, logits[1])]


def test_a_blob_at_a_junctions_centre_has_corridor_all_round_and_one_over_a_wall_does_not() -> None:
    rect = _rect()
    wall = wall_zone(rect, TILES, 0.27, 0.12)
    assert wall is not None
    at_centre, over_wall = _pair((0.0, 0.0))
    assert wall_reach(at_centre, wall, T) < 0.05
    assert wall_reach(over_wall, wall, T) > 0.3
    assert wall_zone(rect, TILES[:10], 0.27, 0.12) is None  # no whole board read: nothing to say


def test_in_a_contest_the_blob_reaching_over_a_wall_wins_a_near_tie_but_not_a_clear_lead() -> None:
    rect = _rect()
    wall = wall_zone(rect, TILES, 0.27, 0.12)
    assert wall is not None

    def choose(logits: tuple[float, float], with_reach: bool) -> int:
        found = _pair(logits)
        rows = [cand.features for cand in found]
        probs = [1.0 / (1.0 + np.exp(-logit)) for logit in logits]
        reach = (lambda cand: wall_reach(cand, wall, T)) if with_reach else None
        return _one_of_a_kind(found, rows, probs, Color.RED, 0.5, _MODEL, reach)

    assert choose((3.0, 2.5), with_reach=False) == 0  # the centred print outscores the pawn
    assert choose((3.0, 2.5), with_reach=True) == 1
    assert choose((6.0, 2.5), with_reach=True) == 0
