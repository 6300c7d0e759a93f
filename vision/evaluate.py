"""Evaluate the reader on a labelled photo folder (FORMATS.md §5): per-image results and the summary.

One code path for the ``vision-test`` command and the tests, so the tests check
exactly what the command reports. Metric definitions (issue 4's table):

============================  ==================================================  ================================
figure                        counts                                              over
============================  ==================================================  ================================
``images``                    image files in the folder (with or without label)   —
``readable``                  images whose file and label both load               —
``board_accuracy``            fully right: all 49 tiles and all pawns right and   readable images
                              not reported occluded; an occluded image is right
                              when reported occluded
``tile_accuracy``             tiles right (all 49 wrong when the image was        tiles of readable non-occluded
                              wrongly reported occluded)                          images
``pawn_accuracy``             labelled pawns found on their square                labelled pawns (non-occluded
                                                                                  images) + reported pawns whose
                                                                                  colour the label does not have
``occlusion_accuracy``        images whose occluded yes/no is right               readable images
``ms_median``                 median read time per image, decoding excluded       readable images
============================  ==================================================  ================================

A ratio whose denominator is empty (an all-occluded folder has no tiles to get
wrong) is reported as 1.0; ``ms_median`` is 0.0 when nothing was read.
Each failing image lists its error *types* (``false_occlusion``,
``missed_occlusion``, ``tile``, ``pawn_missed``, ``pawn_square``, ``pawn_extra``).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.board import SIZE, Color, Square
from companion.observation import Observation
from vision.dataset import Dataset, Label, Sample, Skipped, decode_image, load_folder
from vision.reader import BoardReader, Reading


@dataclass
class ImageResult:
    """How one image was read against its label."""

    name: str
    label: Label
    observation: Observation
    ms: float
    tiles_right: int = 0
    tiles_total: int = 0
    pawns_right: int = 0
    pawns_total: int = 0
    occlusion_right: bool = True
    errors: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)

    @property
    def board_right(self) -> bool:
        return not self.errors

    def line(self) -> str:
        """The per-image line the command prints."""
        obs, label = self.observation, self.label
        status = "ok   " if self.board_right else "WRONG"
        if label.occluded:
            what = "occluded (label)" + ("" if obs.occluded else ": read as a board")
        elif obs.occluded:
            what = f"reported occluded: {obs.reason}"
        else:
            what = f"tiles {self.tiles_right}/{self.tiles_total}  pawns {self.pawns_right}/{self.pawns_total}"
        extra = f"  [{'; '.join(self.details[:4])}]" if self.details else ""
        return f"{self.name:24s} {status} {label.lighting:5s} {self.ms:7.1f} ms  {what}{extra}"


@dataclass
class Summary:
    images: int
    readable: int
    board_accuracy: float
    tile_accuracy: float
    pawn_accuracy: float
    occlusion_accuracy: float
    ms_median: float

    def to_json(self) -> dict[str, float | int]:
        """Exactly the issue's JSON object, in its key order."""
        return {
            "images": self.images,
            "readable": self.readable,
            "board_accuracy": round(self.board_accuracy, 6),
            "tile_accuracy": round(self.tile_accuracy, 6),
            "pawn_accuracy": round(self.pawn_accuracy, 6),
            "occlusion_accuracy": round(self.occlusion_accuracy, 6),
            "ms_median": round(self.ms_median, 3),
        }


@dataclass
class Evaluation:
    results: list[ImageResult]
    skipped: list[Skipped]
    summary: Summary
    notes: list[str] = field(default_factory=list)


def compare(sample: Sample, observation: Observation, ms: float) -> ImageResult:
    """Score one observation against its label (the table's per-image counts)."""
    label = sample.label
    res = ImageResult(sample.name, label, observation, ms)
    if label.occluded:
        res.occlusion_right = observation.occluded
        if not observation.occluded:
            res.errors.append("missed_occlusion")
            res.details.append("hand/object not noticed")
        return res
    res.occlusion_right = not observation.occluded
    assert label.tiles is not None  # parse_label guarantees tiles on non-occluded labels
    res.tiles_total = len(label.tiles)
    res.pawns_total = len(label.pawns)
    if observation.occluded or not observation.readable:
        res.errors.append("false_occlusion")
        res.details.append(f"reported occluded: {observation.reason}")
        return res
    read = [t.openings for t in observation.tiles]
    for i, (want, got) in enumerate(zip(label.tiles, read, strict=True)):
        if want == got:
            res.tiles_right += 1
        else:
            res.details.append(f"tile {i // SIZE},{i % SIZE} {want} read {got}")
    if res.tiles_right < res.tiles_total:
        res.errors.append("tile")
    for color, square in label.pawns.items():
        got_sq = observation.pawns.get(color)
        if got_sq is not None and tuple(got_sq) == tuple(square):
            res.pawns_right += 1
        elif got_sq is None:
            res.errors.append("pawn_missed")
            res.details.append(f"{color} at {square[0]},{square[1]} not found")
        else:
            res.errors.append("pawn_square")
            res.details.append(f"{color} at {square[0]},{square[1]} read {got_sq[0]},{got_sq[1]}")
    for color, square in observation.pawns.items():
        if color not in label.pawns:
            res.pawns_total += 1
            res.errors.append("pawn_extra")
            res.details.append(f"{color} reported at {square[0]},{square[1]}, not in the label")
    return res


def summarise(results: list[ImageResult], images: int) -> Summary:
    readable = len(results)
    tiles_total = sum(r.tiles_total for r in results)
    pawns_total = sum(r.pawns_total for r in results)

    def ratio(num: int, den: int) -> float:
        return num / den if den else 1.0

    return Summary(
        images=images,
        readable=readable,
        board_accuracy=ratio(sum(r.board_right for r in results), readable),
        tile_accuracy=ratio(sum(r.tiles_right for r in results), tiles_total),
        pawn_accuracy=ratio(sum(r.pawns_right for r in results), pawns_total),
        occlusion_accuracy=ratio(sum(r.occlusion_right for r in results), readable),
        ms_median=statistics.median(r.ms for r in results) if results else 0.0,
    )


def evaluate_folder(
    folder: str | Path,
    reader: BoardReader | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
    debug_dir: str | Path | None = None,
) -> Evaluation:
    """Read every labelled image of ``folder``; the reader uses the folder's calibration unless given one."""
    dataset: Dataset = load_folder(folder)
    notes = [dataset.calibration_problem] if dataset.calibration_problem else []
    if reader is None:
        reader = BoardReader(calibration=dataset.calibration)
    skipped = list(dataset.skipped)
    results: list[ImageResult] = []
    out_dir = Path(debug_dir) if debug_dir is not None else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    total = len(dataset.samples)
    for k, sample in enumerate(dataset.samples):
        image, reason = decode_image(sample.path)
        if image is None:
            skipped.append(Skipped(sample.path, reason or "not decodable"))
        else:
            start = time.perf_counter()
            reading = reader.read_detailed(image)
            ms = (time.perf_counter() - start) * 1000.0
            result = compare(sample, reading.observation, ms)
            results.append(result)
            if out_dir is not None:
                cv2.imwrite(str(out_dir / f"{sample.path.stem}.jpg"), draw_debug(image, reading, result))
        if progress is not None:
            progress(k + 1, total)
    images = len(dataset.samples) + sum(1 for s in dataset.skipped)
    return Evaluation(results, skipped, summarise(results, images), notes)


# --------------------------------------------------------------------------- debug pictures

_BGR: dict[Color, tuple[int, int, int]] = {
    Color.RED: (40, 40, 230),
    Color.YELLOW: (0, 220, 240),
    Color.GREEN: (60, 200, 60),
    Color.BLUE: (230, 120, 30),
}
_RIGHT = (80, 220, 80)
_WRONG = (0, 0, 255)


def draw_debug(image: np.ndarray, reading: Reading, result: ImageResult | None = None) -> np.ndarray:
    """The frame annotated: detected grid, read openings (wrong ones in red), treasure pictures
    (magenta dots), pawns found (rings in their colour), pawns missed or misplaced (a red cross
    on the labelled square, ringed in the pawn's colour), and the reasons and mistakes as text."""
    canvas = image.copy()
    rect = reading.rect
    obs = reading.observation
    scale = max(1, round(max(image.shape[:2]) / 800))
    if rect is not None:
        t, m = rect.tile_px, rect.margin_px
        for k in range(SIZE + 1):
            for a, b in (((m + k * t, m), (m + k * t, m + SIZE * t)), ((m, m + k * t), (m + SIZE * t, m + k * t))):
                pts = rect.to_image([a, b]).astype(np.int32)
                cv2.line(canvas, tuple(pts[0]), tuple(pts[1]), (255, 200, 0), scale)
        wrong_tiles = _wrong_squares(result)
        if obs.readable:
            for i, tile in enumerate(obs.tiles):
                r, c = divmod(i, SIZE)
                x0, y0, x1, y1 = rect.tile_box(r, c)
                cx, cy = (x0 + x1 - 1) / 2.0, (y0 + y1 - 1) / 2.0
                colour = _WRONG if (r, c) in wrong_tiles else _RIGHT
                for bit, (dx, dy) in ((1, (0, -1)), (2, (1, 0)), (4, (0, 1)), (8, (-1, 0))):
                    if int(tile.openings) & bit:
                        pts = rect.to_image([[cx, cy], [cx + dx * t * 0.42, cy + dy * t * 0.42]]).astype(np.int32)
                        cv2.line(canvas, tuple(pts[0]), tuple(pts[1]), colour, 2 * scale)
                if tile.treasure:
                    p = rect.to_image([[cx, cy]]).astype(np.int32)[0]
                    cv2.circle(canvas, tuple(p), 3 * scale, (255, 0, 255), -1)
        for det in reading.pawns:
            p = rect.to_image([det.base]).astype(np.int32)[0]
            cv2.circle(canvas, tuple(p), 9 * scale, _BGR[det.color], 3 * scale)
        if result is not None and obs.readable:
            for color, (r, c) in result.label.pawns.items():
                if tuple(obs.pawns.get(color, (-1, -1))) == (r, c):
                    continue
                x0, y0, x1, y1 = rect.tile_box(r, c)
                p = rect.to_image([[(x0 + x1) / 2.0, (y0 + y1) / 2.0]]).astype(np.int32)[0]
                d = 8 * scale
                cv2.line(canvas, (p[0] - d, p[1] - d), (p[0] + d, p[1] + d), _WRONG, 2 * scale)
                cv2.line(canvas, (p[0] - d, p[1] + d), (p[0] + d, p[1] - d), _WRONG, 2 * scale)
                cv2.circle(canvas, tuple(p), d + 2 * scale, _BGR[color], scale)
    texts = [obs.reason] if obs.occluded and obs.reason else []
    texts += result.details[:6] if result is not None else []
    for n, text in enumerate(texts):
        origin = (10, 30 * scale * (n + 1))
        cv2.putText(canvas, text, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale, _WRONG, 2 * scale)
    return canvas


def _wrong_squares(result: ImageResult | None) -> set[Square]:
    if result is None or result.label.tiles is None or not result.observation.readable:
        return set()
    return {
        divmod(i, SIZE)
        for i, (want, got) in enumerate(zip(result.label.tiles, result.observation.tiles, strict=True))
        if want != got.openings
    }  # type: ignore[misc]
