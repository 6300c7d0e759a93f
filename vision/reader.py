"""The board reader: a camera frame in, an :class:`~companion.observation.Observation` out.

Stages, each in its own module (pure functions of config + image)::

    normalise frame -> frame checks (blank / too dark)            vision.occlusion
    -> locate_board (corners, fitted lens)                        vision.locate
    -> rectify (top-down view), day or night, blur check          vision.rectify, vision.lighting, vision.occlusion
    -> tiles, first read (tells the pawn finder where walls are)  vision.tiles
    -> pawns                                                      vision.pawns
    -> tiles again with the pawns painted out + grid quality      vision.pawns.erase, vision.tiles
    -> occlusion signals (frame band, tile-corner lattice, grid
       quality, unclear tiles, fixed tiles) and the decision      vision.occlusion
    -> treasure pictures + descriptors                            vision.treasures

:meth:`BoardReader.read` never raises on a frame. Expected failures are named
(:class:`~vision.locate.BoardNotFoundError`, an occlusion reason, a frame that is
not an image) and come back as an occluded observation with a ``reason``;
anything else is a bug and keeps its traceback (no catch-all).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.board import SQUARES, Board, Color, Square
from companion.observation import Observation, TileReading
from vision import lighting as light_mod
from vision import occlusion as occ
from vision import pawns as pawn_mod
from vision import treasures as treasure_mod
from vision.heap import keep_freed_memory
from vision.locate import BoardNotFoundError, locate_board
from vision.markers import find_board_by_markers
from vision.rectify import Lens, Rectified, rectify
from vision.tile_hidden import visible_shares
from vision.tiles import grid_quality, read_tiles, shadow_band, tiles_for_lighting, view_bands


@dataclass(frozen=True)
class ReaderConfig:
    """Reader thresholds with their documented defaults.

    ``max_side``: frames with a longer side are downscaled first (bounded time on
    huge frames; the corners are reported in the original frame's pixels).
    ``min_side``: smaller frames cannot show 49 readable tiles.
    ``tile_px``/``margin``: the rectified view's scale (pixels per tile) and border; the
    border is wide enough to see a pawn leaning off an edge square and an arm crossing
    the board's edge.
    ``night_level``/``night_median``: a frame is a night (darkened-room) frame when its
    90th-percentile grey level is under ``night_level`` or its median under
    ``night_median``. Measured on two independent renderers: night medians 3-18 and
    daylight medians 53 and up (dark boards in daylight included); a lamp pool or the
    LEDs lift a night's 90th percentile to ~110, which alone read as daylight. Such a dark
    frame is night only if the board's walls outshine its corridors (the glow phase; see
    :func:`vision.lighting.decide`).
    ``markers_first``: look for ArUco markers on the frame corners (:mod:`vision.markers`)
    before the markerless search; otherwise they are the fallback when the markerless
    search finds no board (the marker search costs a few ms a frame). Calibration's
    ``"markers": true`` turns it on for a rig with markers.
    ``locate``/``tiles``: passed through to the grid engineer's stages.
    ``second_look``/``second_look_margin``: when a located day frame's grid quality is under the
    occlusion bar (``OcclusionConfig.min_quality``: only frames about to be reported hidden or misread
    pay), locate is asked for its second opinions with the answer already read excluded
    (:func:`vision.locate.locate_board` ``exclude``), the best is read, and its read is kept only when
    its grid quality clears the bar by ``second_look_margin`` and beats the first read's; otherwise the
    first read stands (a hand lowers the quality on every grid over the board, so its frame stays
    occluded; a board on a patterned cloth located too large reads right at its second grid). The margin
    is judgement, not fitted. Cost: those frames pay a second search (under a second here); frames over
    the bar (the bench photo) pay nothing. Measurements: vision/notes/reader.md.
    ``keep_memory``: keep what a read frees for the next frame (:mod:`vision.heap`: glibc's
    allocator otherwise unmaps and re-faults the frame's temporaries, ~13 ms a read);
    a process-wide allocator setting, made when the first reader is built.
    """

    max_side: int = 2100
    min_side: int = 64
    tile_px: int = 48
    margin: float = 0.75
    markers_first: bool = False
    night_level: float = 75.0
    night_median: float = 30.0
    locate: Any = None
    tiles: Any = None
    pawns: pawn_mod.PawnConfig = field(default_factory=pawn_mod.PawnConfig)
    occlusion: occ.OcclusionConfig = field(default_factory=occ.OcclusionConfig)
    second_look: bool = True
    second_look_margin: float = 0.05
    keep_memory: bool = True


@dataclass
class Reading:
    """Everything one read produced: the observation plus the intermediate results (for debug pictures)."""

    observation: Observation
    image: np.ndarray | None = None
    scale: float = 1.0
    rect: Rectified | None = None
    pawns: list[pawn_mod.PawnDetection] = field(default_factory=list)
    grid_quality: float | None = None
    signals: occ.Signals | None = None


class FrameError(ValueError):
    """The frame is not an image the reader can work on (None, wrong shape, too small)."""


class BoardReader:
    """Reads frames with one configuration and optional calibration (``calibration.json`` content).

    Calibration keys used (all optional, see ``vision/pawns.py`` for the colour model):
    ``corners`` — fixed board corners in frame pixels (TL, TR, BR, BL) for a fixed
    camera; ``pawn_colors`` — per-colour Lab means learned at setup; ``markers`` —
    true when the board carries corner markers (they are then looked for first).
    """

    def __init__(self, config: ReaderConfig | None = None, calibration: Mapping[str, Any] | None = None) -> None:
        self.config = config or ReaderConfig()
        if self.config.keep_memory:
            keep_freed_memory()
        self.calibration = dict(calibration or {})
        self.colour_model = pawn_mod.ColourModel.from_calibration(self.calibration)
        self.fixed_corners = _calibrated_corners(self.calibration)
        self.markers_first = self.config.markers_first or self.calibration.get("markers") is True

    def __repr__(self) -> str:
        return f"BoardReader(calibrated={bool(self.calibration)})"

    def read(self, frame: object) -> Observation:
        """The observation of one frame; never raises on any input."""
        return self.read_detailed(frame).observation

    def read_detailed(self, frame: object, corners: Sequence[Sequence[float]] | None = None) -> Reading:
        """Like :meth:`read`, keeping intermediate results; ``corners`` skips locating (known geometry)."""
        try:
            image, scale = normalise_frame(frame, self.config)
        except FrameError as exc:
            return Reading(Observation.unreadable(str(exc)))
        reading = Reading(Observation.unreadable("not read"), image=image, scale=scale)
        grey = occ.small_grey(image)  # read by the frame checks and the day/night decision
        problem = occ.frame_problem(image, self.config.occlusion, grey)
        if problem:
            reading.observation = Observation.unreadable(problem)
            return reading
        lens = None
        try:
            if corners is not None:
                found = np.asarray(corners, dtype=np.float32).reshape(4, 2) / scale
            elif self.fixed_corners is not None:
                found = self.fixed_corners / scale
            else:
                found, lens = self._locate(image)
            _check_corners(found, image.shape)
        except BoardNotFoundError as exc:
            reading.observation = Observation.unreadable(f"board not found: {exc}")
            return reading
        self._read_board(reading, image, np.asarray(found, dtype=np.float32), scale, grey, lens)
        if corners is None and self.fixed_corners is None and self._doubtful(reading):
            return self._second_look(reading, image, np.asarray(found, dtype=np.float32), scale, grey)
        return reading

    def _doubtful(self, reading: Reading) -> bool:
        """A located day read whose grid quality is under the occlusion bar (see ``ReaderConfig.second_look``)."""
        return (
            self.config.second_look
            and reading.grid_quality is not None
            and reading.observation.lighting == "day"
            and reading.grid_quality < self.config.occlusion.min_quality
        )

    def _second_look(
        self, reading: Reading, image: np.ndarray, found: np.ndarray, scale: float, grey: np.ndarray
    ) -> Reading:
        """Locate's best other answer read too; kept only if its grid quality clearly passes and beats the first."""
        try:
            other = locate_board(image, self.config.locate, exclude=found)
            _check_corners(other.corners, image.shape)
        except BoardNotFoundError:
            return reading
        again = Reading(Observation.unreadable("not read"), image=image, scale=scale)
        self._read_board(again, image, np.asarray(other.corners, dtype=np.float32), scale, grey, other.lens)
        first = reading.grid_quality or 0.0
        bar = self.config.occlusion.min_quality + self.config.second_look_margin
        if again.grid_quality is not None and again.grid_quality >= bar and again.grid_quality > first:
            return again
        return reading

    def _locate(self, image: np.ndarray) -> tuple[np.ndarray, Lens | None]:
        """Tile-area corners and the lens fitted with them (markers: none): markers first or as the fallback
        (see ``ReaderConfig.markers_first``)."""
        if self.markers_first:
            found = find_board_by_markers(image, self.config.locate)
            if found is not None:
                return found, None
            located = locate_board(image, self.config.locate)
            return located.corners, located.lens
        try:
            located = locate_board(image, self.config.locate)
            return located.corners, located.lens
        except BoardNotFoundError:
            found = find_board_by_markers(image, self.config.locate)
            if found is None:
                raise
            return found, None

    def _read_board(
        self,
        reading: Reading,
        image: np.ndarray,
        corners: np.ndarray,
        scale: float,
        grey: np.ndarray,
        lens: Lens | None = None,
    ) -> None:
        cfg = self.config
        frame_corners = [(float(x) * scale, float(y) * scale) for x, y in corners]
        # Through the lens the locator fitted (if any): the tile lines come out straight.
        rect = rectify(image, corners, tile_px=cfg.tile_px, margin=cfg.margin, lens=lens)
        reading.rect = rect
        lighting = light_mod.decide(image, rect, cfg.night_level, cfg.night_median, grey)
        tiles_cfg = tiles_for_lighting(cfg.tiles, lighting)

        def unreadable(reason: str) -> None:
            reading.observation = Observation.unreadable(reason, frame_corners, lighting)

        if occ.sharpness(rect) < cfg.occlusion.blur_ratio:
            return unreadable("frame too blurred to read")
        centre = rect.to_rect([(image.shape[1] / 2.0, image.shape[0] / 2.0)])[0]
        # Each view's band features are computed once and shared by its tile read and grid quality.
        first_bands = view_bands(rect, tiles_cfg)
        # A lamp's shadow band is searched for once (painting the pawns out does not move it), fitted per view.
        shadow = shadow_band(rect, tiles_cfg)
        first = read_tiles(rect, tiles_cfg, bands=first_bands, band=shadow)
        detections = pawn_mod.find_pawns(rect, first, cfg.pawns, self.colour_model, lighting=lighting, camera=centre)
        reading.pawns = detections
        exclude = pawn_mod.covered_squares(detections, rect)
        # Read the openings again with the pawns painted out (better than down-weighting their squares).
        erased = pawn_mod.erase(rect, detections)
        # No pawns: erased is rect. With pawns, what looked like a pawn stays out of the sides.
        bands = view_bands(erased, tiles_cfg, first_bands.board, (rect, first_bands)) if detections else first_bands
        # The sides' painted-out pixels count little: a tall pawn hides arms the paint cannot restore.
        seen = visible_shares(rect, detections, tiles_cfg) if detections else None
        if detections:
            erased_shadow = shadow_band(erased, tiles_cfg, shadow) if shadow is not None else None
            tiles = read_tiles(erased, tiles_cfg, bands=bands, pawns_on=exclude, visible=seen, band=erased_shadow)
        else:
            tiles = first
        # The grid quality is judged with the same tile settings (and features) as the tiles.
        quality = float(grid_quality(erased, tiles_cfg, bands=bands))
        reading.grid_quality = quality
        boxes = [d.box for d in detections]
        signals = occ.signals(rect, image.shape, tiles, quality, exclude, boxes, cfg.occlusion, lighting)
        reading.signals = signals
        problem = occ.decide(signals, lighting, cfg.occlusion)
        if problem:
            return unreadable(problem)
        pictures = treasure_mod.describe(erased, tiles, hidden=exclude, lab=bands.lab)  # bands: erased's
        # Built directly: dataclasses.replace costs ~7 us a tile (its generic field walk), 49 a frame.
        tiles = [
            TileReading(t.openings, t.confidence, t.edges, p.treasure, p.descriptor)
            for t, p in zip(tiles, pictures, strict=True)
        ]
        pawns = {d.color: d.square for d in detections}
        confidence = {d.color: d.confidence for d in detections}
        reading.observation = Observation(
            tiles=tuple(tiles),
            pawns=pawns,
            corners=tuple(frame_corners),  # type: ignore[arg-type]
            lighting=lighting,
            pawn_confidence=confidence,
        )


# --------------------------------------------------------------------------- frames


def normalise_frame(frame: object, config: ReaderConfig | None = None) -> tuple[np.ndarray, float]:
    """Any array-like picture -> contiguous BGR uint8 no larger than ``max_side``, and the scale back.

    Accepts greyscale, 1/3/4 channels, bool/integer/float pixels. Raises FrameError when it
    is not a picture at all.
    """
    cfg = config or ReaderConfig()
    if frame is None:
        raise FrameError("no frame")
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"frame is not an image array but {type(frame).__name__}")
    image = frame
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    if image.ndim not in (2, 3) or (image.ndim == 3 and image.shape[2] not in (3, 4)):
        raise FrameError(f"frame has shape {image.shape}, expected HxW, HxWx3 or HxWx4")
    if min(image.shape[:2]) < cfg.min_side:
        raise FrameError(f"frame too small ({image.shape[1]}x{image.shape[0]} pixels)")
    image = _to_uint8(image)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    scale = 1.0
    longest = max(image.shape[:2])
    if longest > cfg.max_side:
        scale = longest / cfg.max_side
        size = (max(1, round(image.shape[1] / scale)), max(1, round(image.shape[0] / scale)))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(image), scale


def _to_uint8(image: np.ndarray) -> np.ndarray:
    if image.dtype == np.uint8:
        return image
    if image.dtype == np.bool_:
        return image.astype(np.uint8) * 255
    if np.issubdtype(image.dtype, np.floating):
        values = np.nan_to_num(image.astype(np.float32), nan=0.0, posinf=255.0, neginf=0.0)
        if values.size and float(values.max()) <= 1.0:
            values = values * 255.0
        return np.clip(values, 0, 255).astype(np.uint8)
    if image.dtype == np.uint16:
        return (image >> 8).astype(np.uint8)
    if np.issubdtype(image.dtype, np.integer):
        return np.clip(image, 0, 255).astype(np.uint8)
    raise FrameError(f"frame has unsupported pixel type {image.dtype}")


def _check_corners(corners: np.ndarray, shape: tuple[int, ...]) -> None:
    """Reject geometry no rectification can use (a named failure, not an OpenCV crash later)."""
    pts = np.asarray(corners, dtype=np.float64)
    if pts.shape != (4, 2) or not np.all(np.isfinite(pts)):
        raise BoardNotFoundError("corners are not four finite points")
    area = 0.5 * abs(_cross(pts[2] - pts[0], pts[3] - pts[1]))
    if area < 49 * 8 * 8:
        raise BoardNotFoundError("board too small in the frame")
    signs = [_cross(pts[(i + 1) % 4] - pts[i], pts[(i + 2) % 4] - pts[(i + 1) % 4]) for i in range(4)]
    if not (all(s > 0 for s in signs) or all(s < 0 for s in signs)):
        raise BoardNotFoundError("corners do not form a convex quadrilateral")


def _cross(a: np.ndarray, b: np.ndarray) -> float:
    return float(a[0] * b[1] - a[1] * b[0])


def _calibrated_corners(calibration: Mapping[str, Any]) -> np.ndarray | None:
    raw = calibration.get("corners")
    if raw is None:
        return None
    try:
        pts = np.asarray(raw, dtype=np.float32)
    except (TypeError, ValueError):
        return None
    return pts if pts.shape == (4, 2) and np.all(np.isfinite(pts)) else None


# --------------------------------------------------------------------------- candidates


def score_candidates(
    observation_or_frame: Observation | object,
    boards: Iterable[Board | Sequence[int]],
    reader: BoardReader | None = None,
) -> list[float]:
    """Log-likelihood of each candidate board given a frame (or its observation); higher is better.

    The referee passes the legal successors of its tracked state (12 gates x spare
    rotations, or no push) and decides. Tiles count through their edge probabilities;
    a candidate that puts a pawn seen with confidence ``p`` elsewhere loses ``log(1-p)``.
    An unreadable frame scores every candidate ``-inf``.
    """
    if isinstance(observation_or_frame, Observation):
        observation = observation_or_frame
    else:
        observation = (reader or _default_reader()).read(observation_or_frame)
    scores = []
    for board in boards:
        tiles = board.tiles if isinstance(board, Board) else tuple(board)
        if len(tiles) != SQUARES:
            raise ValueError(f"a candidate board needs {SQUARES} tiles, got {len(tiles)}")
        score = observation.score(tiles)
        if isinstance(board, Board) and math.isfinite(score):
            score += _pawn_term(observation, board.pawns)
        scores.append(score)
    return scores


def _pawn_term(observation: Observation, pawns: Mapping[Color, Square]) -> float:
    total = 0.0
    for color, square in observation.pawns.items():
        p = min(max(observation.pawn_confidence.get(color, 0.5), 1e-3), 1 - 1e-3)
        if color in pawns and tuple(pawns[color]) != tuple(square):
            total += math.log(1.0 - p)
    return total


_DEFAULT: list[BoardReader] = []


def _default_reader() -> BoardReader:
    if not _DEFAULT:
        _DEFAULT.append(BoardReader())
    return _DEFAULT[0]


def read_board(frame: object) -> Observation:
    """Read one frame with the default configuration and no calibration."""
    return _default_reader().read(frame)


__all__ = [
    "BoardNotFoundError",
    "BoardReader",
    "FrameError",
    "ReaderConfig",
    "Reading",
    "TileReading",
    "normalise_frame",
    "read_board",
    "score_candidates",
]
