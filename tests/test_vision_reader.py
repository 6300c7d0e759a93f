"""The composed reader: never raises on any input, reports why a frame cannot be read."""

from __future__ import annotations

import platform
import sys
from pathlib import Path

import numpy as np
import pytest

from companion.board import Board, Color, Tile
from companion.observation import Observation, TileReading
from vision.dataset import decode_image
from vision.heap import keep_freed_memory
from vision.reader import BoardReader, FrameError, normalise_frame, read_board, score_candidates

RNG = np.random.default_rng(7)

NASTY: dict[str, object] = {
    "none": None,
    "list": [[1, 2], [3, 4]],
    "string": "frame.jpg",
    "blank": np.zeros((480, 640, 3), np.uint8),
    "white": np.full((480, 640, 3), 255, np.uint8),
    "tiny": np.zeros((5, 5, 3), np.uint8),
    "empty": np.zeros((0, 0, 3), np.uint8),
    "one-dimensional": np.zeros(100, np.uint8),
    "two-channel": np.zeros((100, 100, 2), np.uint8),
    "nan": np.full((200, 200, 3), np.nan),
    "greyscale noise": RNG.integers(0, 255, (240, 320), dtype=np.uint8),
    "bgra noise": RNG.integers(0, 255, (240, 320, 4), dtype=np.uint8),
    "float noise": RNG.random((240, 320, 3)),
    "uint16 noise": RNG.integers(0, 65535, (240, 320, 3), dtype=np.uint16),
    "bool": RNG.random((200, 200)) > 0.5,
    "int64 out of range": RNG.integers(-100, 400, (200, 200, 3)),
    "thin strip": RNG.integers(0, 255, (64, 3000, 3), dtype=np.uint8),
    "huge": np.tile(RNG.integers(0, 255, (500, 750, 3), dtype=np.uint8), (8, 8, 1)),
}


@pytest.mark.parametrize("name", list(NASTY))
def test_reader_never_raises_on_nasty_input(name: str) -> None:
    obs = BoardReader().read(NASTY[name])
    assert isinstance(obs, Observation)
    assert obs.occluded and obs.reason and "\n" not in obs.reason
    assert not obs.readable and obs.pawns == {}


def test_truncated_jpeg_decodes_or_is_reported(tmp_path: Path) -> None:
    import cv2

    ok, data = cv2.imencode(".jpg", RNG.integers(0, 255, (300, 400, 3), dtype=np.uint8))
    assert ok
    path = tmp_path / "cut.jpg"
    path.write_bytes(data.tobytes()[: len(data) // 3])
    image, reason = decode_image(path)
    # OpenCV either refuses a truncated JPEG or fills the missing part: both must be harmless.
    assert image is not None or reason
    assert read_board(image).occluded


def test_normalise_frame_shapes_and_scale() -> None:
    image, scale = normalise_frame(np.zeros((3000, 4200), np.uint16))
    assert image.dtype == np.uint8 and image.shape == (1500, 2100, 3) and scale == pytest.approx(2.0)
    with pytest.raises(FrameError, match="too small"):
        normalise_frame(np.zeros((10, 10, 3), np.uint8))


def test_score_candidates_prefers_the_observed_board() -> None:
    board = Board.from_json(
        {"tiles": [["NS"] * 7 for _ in range(7)], "spare": "NE", "pawns": {"red": [0, 0]}}
    )
    other = board.push(board.legal_pushes()[0], Tile.ES)
    tiles = tuple(TileReading(t, 0.9, tuple(0.9 if t & b else 0.1 for b in (1, 2, 4, 8))) for t in board.tiles)
    obs = Observation(tiles=tiles, pawns={Color.RED: (0, 0)}, pawn_confidence={Color.RED: 0.9})
    good, bad = score_candidates(obs, [board, other])
    assert good > bad
    moved = board.with_pawns({Color.RED: (1, 0)})
    assert score_candidates(obs, [moved])[0] < good
    assert score_candidates(Observation.unreadable("hand"), [board]) == [float("-inf")]
    assert score_candidates(None, [board]) == [float("-inf")]


# --------------------------------------------------------------------------- rendered boards


def _render(seed: int, look: str, *, names_seed: int | None = None, **options: object) -> tuple[np.ndarray, dict]:
    from vision.render import random_board, render_photo

    board, names = random_board(names_seed if names_seed is not None else seed)
    return render_photo(
        board, seed=seed, look=look, size=(1280, 960), treasure_names=names[:49], spare_treasure=names[49], **options
    )


def test_reads_a_rendered_board_fully() -> None:
    image, label = _render(51, "classic")
    obs = BoardReader().read(image)
    assert obs.readable and obs.lighting == "day"
    assert [[str(t) for t in row] for row in obs.tile_rows()] == label["tiles"]
    assert {str(c): list(sq) for c, sq in obs.pawns.items()} == label["pawns"]
    assert all(0.0 <= t.confidence <= 1.0 for t in obs.tiles)
    assert np.allclose(np.array(obs.corners), np.array(label["corners"]), atol=6.0)
    shown = {tuple(sq) for sq in label["treasures"]}
    seen = set(obs.treasure_squares())
    assert len(seen & shown) >= 0.8 * len(shown) and len(seen - shown) <= 2
    assert all(len(obs.tile(sq).descriptor) == 40 for sq in seen)


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc", reason="glibc's mallopt only"
)
def test_the_reader_keeps_freed_memory_on_glibc() -> None:
    """vision.heap's allocator settings reach glibc (a wrong binding or parameter makes mallopt refuse)."""
    BoardReader()
    assert keep_freed_memory() and keep_freed_memory()  # applied once, then remembered


def test_reads_with_calibrated_corners() -> None:
    image, label = _render(52, "hedge")
    reader = BoardReader(calibration={"corners": label["corners"]})
    obs = reader.read(image)
    assert obs.readable and [[str(t) for t in row] for row in obs.tile_rows()] == label["tiles"]


def test_same_treasure_matches_better_than_other_treasures() -> None:
    from vision.treasures import descriptor_distance

    reader = BoardReader()
    a = reader.read(_render(53, "classic")[0])
    b = reader.read(_render(153, "classic", names_seed=53)[0])  # same board, other camera, light and seed
    assert a.readable and b.readable
    common = sorted(set(a.treasure_squares()) & set(b.treasure_squares()))
    assert len(common) >= 12
    same = [descriptor_distance(a.tile(sq).descriptor, b.tile(sq).descriptor) for sq in common]
    other = [
        descriptor_distance(a.tile(sq).descriptor, b.tile(o).descriptor) for sq in common for o in common if o != sq
    ]
    assert np.median(same) < np.percentile(other, 25)


@pytest.mark.parametrize("radius", [0.15, 0.3])
def test_picture_shares_count_the_whole_disc(radius: float) -> None:
    # describe() measures colour distances only on the discs' pixels; the shares must be
    # those of the whole tile's distance map, also when the search disc is the larger one.
    import cv2

    from vision.rectify import rectify
    from vision.tiles import read_tiles
    from vision.treasures import TreasureConfig, _corridor_colours, _disc_geometry, describe

    image, label = _render(54, "classic")
    rect = rectify(image, np.array(label["corners"], dtype=np.float32))
    tiles = read_tiles(rect)
    cfg = TreasureConfig(radius=radius)
    t = rect.tile_px
    grid = rect.tiles_array().reshape(-1, t, 3)
    lab = cv2.cvtColor(grid, cv2.COLOR_BGR2Lab).reshape(49, t, t, 3).astype(np.float32)
    ref, texture = _corridor_colours(lab, tiles, t)
    dist = np.linalg.norm(lab - ref[:, None, None, :], axis=3)
    foreign = dist > np.maximum(cfg.foreign_distance, cfg.texture_factor * texture)[:, None, None]
    disc, _ = _disc_geometry(t, radius)
    expected = (foreign & disc).reshape(49, -1).sum(axis=1) / disc.sum()
    pictures = describe(rect, tiles, cfg)
    assert [p.share for p in pictures] == pytest.approx(list(expected), rel=1e-12)
    assert sum(p.treasure for p in pictures) >= 10
    assert all(len(p.descriptor) == 40 for p in pictures if p.treasure)


def test_benchmarks_are_registered() -> None:
    from vision.bench import benchmarks, candidate_boards

    assert set(benchmarks()) == {"read_ms", "read_constrained_ms"}
    board = Board.from_json({"tiles": [["NS"] * 7 for _ in range(7)], "spare": "NES", "last_push": "N1"})
    assert len(candidate_boards(board)) == 1 + 11 * 4
