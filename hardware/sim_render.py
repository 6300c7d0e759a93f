"""Pictures of the simulated LED strip: the board with its LEDs, as PNG or ANSI text.

The bytes sent to a WS2812 are linear in light, so a dim night value (say
16) would look black on a screen. Pictures therefore show LEDs as an eye
would judge them: ``255 * (v/255) ** (1/2.2)`` (16 shows as about 72), and
an LED that is off is drawn as a dark ring, so "off" and "dim" stay apart.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import cv2
import numpy as np

from companion.board import SIZE
from hardware.layout import Layout

_BOARD_BG = (40, 52, 60)  # BGR: dark slate
_SQUARE = (70, 84, 92)
_RING = (90, 90, 90)
_MARGIN = 1  # squares of margin around the board, where gate LEDs sit


def perceived(rgb: np.ndarray) -> np.ndarray:
    """LED bytes (linear light) to display values (gamma-encoded), uint8."""
    arr = np.asarray(rgb, dtype=np.float64)
    return np.round(255.0 * (arr / 255.0) ** (1 / 2.2)).astype(np.uint8)


def board_image(rgb: np.ndarray, layout: Layout, *, scale: int = 48) -> np.ndarray:
    """A BGR picture of the board with every LED of ``layout`` drawn in its colour."""
    side = (SIZE + 2 * _MARGIN) * scale
    img = np.zeros((side, side, 3), dtype=np.uint8)
    top = _MARGIN * scale
    cv2.rectangle(img, (top, top), (top + SIZE * scale - 1, top + SIZE * scale - 1), _BOARD_BG, -1)
    pad = max(scale // 16, 1)
    for r in range(SIZE):
        for c in range(SIZE):
            x0, y0 = top + c * scale + pad, top + r * scale + pad
            cv2.rectangle(img, (x0, y0), (x0 + scale - 2 * pad, y0 + scale - 2 * pad), _SQUARE, -1)
    shown = perceived(rgb)
    radius = max(int(scale * 0.3), 2)
    for index, (x, y) in sorted(layout.positions().items()):
        if index >= len(shown):
            continue
        centre = (int((x + _MARGIN) * scale), int((y + _MARGIN) * scale))
        r, g, b = (int(v) for v in shown[index])
        if r or g or b:
            cv2.circle(img, centre, radius, (b, g, r), -1, lineType=cv2.LINE_AA)
        else:
            cv2.circle(img, centre, radius, _RING, max(scale // 24, 1), lineType=cv2.LINE_AA)
    return img


def write_png(path: str | os.PathLike[str], image: np.ndarray) -> Path:
    """Write ``image`` as PNG; parent folders are created; errors are OSError with the path."""
    out = Path(path)
    if out.parent and not out.parent.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
    ok, encoded = cv2.imencode(".png", image)
    if not ok:  # pragma: no cover - PNG encoding of a uint8 image does not fail
        raise OSError(f"cannot encode PNG for {out}")
    out.write_bytes(encoded.tobytes())
    return out


def board_ansi(rgb: np.ndarray, layout: Layout) -> str:
    """The board as text: two characters per square, gates in the margin, ANSI truecolour.

    ``██`` is a lit LED in its colour, ``░░`` an LED that is off, ``··`` a
    square without an LED.
    """
    side = SIZE + 2 * _MARGIN
    cells: list[list[str]] = [["  "] * side for _ in range(side)]
    for r in range(SIZE):
        for c in range(SIZE):
            cells[r + _MARGIN][c + _MARGIN] = "\x1b[38;2;90;90;90m··\x1b[0m"
    shown = perceived(rgb)
    for index, (x, y) in sorted(layout.positions().items(), reverse=True):
        if index >= len(shown):
            continue
        row, col = math.floor(y + _MARGIN), math.floor(x + _MARGIN)
        if not (0 <= row < side and 0 <= col < side):
            continue
        r, g, b = (int(v) for v in shown[index])
        if r or g or b:
            cells[row][col] = f"\x1b[38;2;{r};{g};{b}m██\x1b[0m"
        else:
            cells[row][col] = "\x1b[38;2;70;70;70m░░\x1b[0m"
    return "\n".join("".join(row) for row in cells)


__all__ = ["board_ansi", "board_image", "perceived", "write_png"]
