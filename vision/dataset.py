"""Labelled photo folders (FORMATS.md §5): listing, label parsing, image decoding.

A folder holds images (``*.jpg``, ``*.jpeg``, ``*.png``) with a same-stem JSON
label, and optionally a ``calibration.json``. Loading never raises on a bad
file: an image without a label, a label that does not parse, or an image that
does not decode is *skipped* with a one-line reason, so an evaluation over a
large folder reports its problems instead of stopping at the first one.

Listing/label parsing and image decoding are separate steps so that the
evaluation can time the reader alone (decoding excluded).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.board import SIZE, Color, InvalidStateError, Square, Tile, parse_square

IMAGE_SUFFIXES: tuple[str, ...] = (".jpg", ".jpeg", ".png")
CALIBRATION_FILE = "calibration.json"
LIGHTINGS: tuple[str, ...] = ("day", "night")


@dataclass(frozen=True)
class Label:
    """What a photo shows, as its sidecar JSON says.

    ``tiles`` is row-major (49 tiles) or ``None`` when an occluded image omits them.
    """

    tiles: tuple[Tile, ...] | None
    pawns: Mapping[Color, Square]
    corners: tuple[tuple[float, float], ...] | None = None
    lighting: str = "day"
    occluded: bool = False
    treasures: frozenset[Square] | None = None


@dataclass(frozen=True)
class Sample:
    """One labelled image of a folder (not decoded yet)."""

    path: Path
    label: Label

    @property
    def name(self) -> str:
        return self.path.name


@dataclass(frozen=True)
class Skipped:
    """A file that could not be used, and why (one line)."""

    path: Path
    reason: str

    def __str__(self) -> str:
        return f"{self.path.name}: skipped: {self.reason}"


@dataclass
class Dataset:
    """The usable samples of a folder, the files skipped while listing, and the calibration."""

    folder: Path
    samples: list[Sample] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    calibration: dict[str, Any] | None = None
    calibration_problem: str | None = None


# --------------------------------------------------------------------------- labels


def parse_label(data: object) -> Label:
    """Validate a label dict with the board's own parsers; raise InvalidStateError with the reason."""
    if not isinstance(data, Mapping):
        raise InvalidStateError("label must be a JSON object")
    occluded = data.get("occluded", False)
    if not isinstance(occluded, bool):
        raise InvalidStateError(f"'occluded' must be true or false, got {occluded!r}")
    lighting = data.get("lighting", "day")
    if lighting not in LIGHTINGS:
        raise InvalidStateError(f"'lighting' must be 'day' or 'night', got {lighting!r}")

    tiles: tuple[Tile, ...] | None = None
    raw_tiles = data.get("tiles")
    if raw_tiles is None:
        if not occluded:
            raise InvalidStateError("label has no 'tiles' (required unless 'occluded' is true)")
    else:
        if not isinstance(raw_tiles, list) or len(raw_tiles) != SIZE:
            raise InvalidStateError("'tiles' must be 7 rows of 7 opening strings")
        parsed: list[Tile] = []
        for r, row in enumerate(raw_tiles):
            if not isinstance(row, list) or len(row) != SIZE:
                raise InvalidStateError(f"'tiles' row {r} must hold 7 opening strings")
            for c, text in enumerate(row):
                try:
                    parsed.append(Tile.parse(text))
                except InvalidStateError as exc:
                    raise InvalidStateError(f"tile [{r},{c}]: {exc}") from None
        tiles = tuple(parsed)

    raw_pawns = data.get("pawns") or {}
    if not isinstance(raw_pawns, Mapping):
        raise InvalidStateError("'pawns' must be an object of color -> [row, col]")
    pawns: dict[Color, Square] = {}
    for key, value in raw_pawns.items():
        color = Color.parse(key)
        try:
            pawns[color] = parse_square(value)
        except InvalidStateError as exc:
            raise InvalidStateError(f"pawn {key}: {exc}") from None

    corners = _parse_corners(data.get("corners"))
    treasures = None
    if data.get("treasures") is not None:
        raw = data["treasures"]
        if not isinstance(raw, list):
            raise InvalidStateError("'treasures' must be a list of [row, col]")
        treasures = frozenset(parse_square(sq) for sq in raw)
    return Label(tiles, pawns, corners, lighting, occluded, treasures)


def _parse_corners(raw: object) -> tuple[tuple[float, float], ...] | None:
    if raw is None:
        return None
    try:
        points = np.asarray(raw, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidStateError("'corners' must be four [x, y] pairs") from None
    if points.shape != (4, 2) or not np.all(np.isfinite(points)):
        raise InvalidStateError("'corners' must be four finite [x, y] pairs (TL, TR, BR, BL)")
    return tuple((float(x), float(y)) for x, y in points)


# --------------------------------------------------------------------------- folders


def load_folder(folder: str | Path) -> Dataset:
    """List a folder's labelled images; skip (with a reason) what cannot be used.

    Raises FileNotFoundError / NotADirectoryError only for the folder itself.
    """
    root = Path(folder)
    if not root.exists():
        raise FileNotFoundError(f"no such folder: {root}")
    if not root.is_dir():
        raise NotADirectoryError(f"not a folder: {root}")
    dataset = Dataset(folder=root)
    dataset.calibration, dataset.calibration_problem = _load_calibration(root / CALIBRATION_FILE)
    images = sorted(p for p in root.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
    for path in images:
        label_path = path.with_suffix(".json")
        if not label_path.is_file():
            dataset.skipped.append(Skipped(path, f"no label {label_path.name}"))
            continue
        try:
            data = json.loads(label_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            dataset.skipped.append(Skipped(path, f"cannot read label {label_path.name}: {exc}"))
            continue
        except json.JSONDecodeError as exc:
            reason = f"label {label_path.name} is not JSON: {exc.msg} at line {exc.lineno}"
            dataset.skipped.append(Skipped(path, reason))
            continue
        try:
            label = parse_label(data)
        except InvalidStateError as exc:
            dataset.skipped.append(Skipped(path, f"invalid label {label_path.name}: {exc}"))
            continue
        dataset.samples.append(Sample(path, label))
    return dataset


def _load_calibration(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    if not path.is_file():
        return None, None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"{path.name} ignored: {exc}"
    if not isinstance(data, dict):
        return None, f"{path.name} ignored: not a JSON object"
    return data, None


def decode_image(path: str | Path) -> tuple[np.ndarray | None, str | None]:
    """Decode an image file to BGR uint8; on failure return ``(None, reason)``.

    Reads the bytes first (``cv2.imread`` cannot tell "missing" from "corrupt"
    and fails on non-ASCII paths on some platforms).
    """
    try:
        data = np.fromfile(str(path), dtype=np.uint8)
    except OSError as exc:
        return None, f"cannot read file: {exc.strerror or exc}"
    if data.size == 0:
        return None, "empty file"
    image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        return None, "not a decodable image"
    return image, None


def iter_decoded(dataset: Dataset) -> Iterator[tuple[Sample, np.ndarray | None, str | None]]:
    """Each sample with its decoded image, or ``None`` and the reason it did not decode."""
    for sample in dataset.samples:
        image, reason = decode_image(sample.path)
        yield sample, image, reason
