"""Lay flat objects (a playing card, a cup seen from above, a phone) on a rendered board photo.

None of the renderers puts objects on the board, so occlusion tests paste them in:
drawn in the board plane (tile units, from the label's tile-area corners), warped into
the photo with the board's homography, lit like the frame around them (dim at night),
with a soft offset shadow. A real object breaks the tile lattice exactly this way: no
seams, no wall/corridor structure under it, straight edges that do not follow the grid.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

#: Canvas pixels per tile and the canvas margin (tiles) around the 7x7 tile area.
PX = 48
MARGIN = 1
SIDE = (7 + 2 * MARGIN) * PX
KINDS = ("card", "cup", "phone")


def _rounded(w: int, h: int, r: int) -> np.ndarray:
    alpha = np.zeros((h, w), np.uint8)
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for x, y in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (x, y), r, 255, -1, cv2.LINE_AA)
    return alpha


def _card(rng: np.random.Generator, colour: tuple[int, int, int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A playing card: white or a random colour (``colour``: this BGR), a printed border and a few pips."""
    w, h = int(1.8 * PX * rng.uniform(0.9, 1.1)), int(2.5 * PX * rng.uniform(0.9, 1.1))
    alpha = _rounded(w, h, int(0.12 * PX))
    base = (245, 245, 245) if rng.random() < 0.5 else tuple(int(v) for v in rng.integers(40, 230, 3))
    if colour is not None:
        base = colour
    layer = np.empty((h, w, 3), np.uint8)
    layer[:] = base
    inset = int(0.12 * PX)
    border = tuple(int(v) for v in rng.integers(0, 255, 3))
    cv2.rectangle(layer, (inset, inset), (w - 1 - inset, h - 1 - inset), border, max(2, int(0.05 * PX)))
    for _ in range(int(rng.integers(2, 6))):  # the print: a few letters and pips
        colour = tuple(int(v) for v in rng.integers(0, 255, 3))
        x, y = int(rng.uniform(2 * inset, w - 2 * inset)), int(rng.uniform(2 * inset, h - 2 * inset))
        if rng.random() < 0.5:
            cv2.putText(layer, str(rng.choice(["A", "K", "7", "Q"])), (x, y), cv2.FONT_HERSHEY_SIMPLEX, 1.0, colour, 2)
        else:
            cv2.circle(layer, (x, y), int(rng.uniform(3, 12)), colour, -1, cv2.LINE_AA)
    return layer, alpha


def _phone(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    w, h = int(2.0 * PX * rng.uniform(0.9, 1.1)), int(4.2 * PX * rng.uniform(0.9, 1.05))
    alpha = _rounded(w, h, int(0.3 * PX))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    diagonal = xx / w * 0.6 + yy / h * 0.4
    gloss = np.exp(-((diagonal - 0.5 - rng.uniform(-0.3, 0.3)) ** 2) / 0.02) * rng.uniform(30, 90)
    layer = np.clip((rng.uniform(10, 35) + gloss)[..., None] * rng.uniform(0.9, 1.1, 3), 0, 255).astype(np.uint8)
    layer[cv2.morphologyEx(alpha, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)) > 0] = (90, 90, 95)  # the bezel
    return layer, alpha


def _cup(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    d = 2.3 * PX * rng.uniform(0.85, 1.1)
    size = int(d * 1.6)
    c = (size // 2, size // 2)
    alpha = np.zeros((size, size), np.uint8)
    cv2.circle(alpha, c, int(d / 2), 255, -1, cv2.LINE_AA)
    body = tuple(int(v) for v in rng.integers(20, 240, 3))
    layer = np.zeros((size, size, 3), np.uint8)
    layer[:] = body
    inner = int(d / 2 * 0.85)
    cv2.circle(layer, c, inner, (20, 35, 60), -1, cv2.LINE_AA)  # coffee
    a0 = float(rng.uniform(0, 360))
    cv2.ellipse(layer, c, (int(d * 0.46), int(d * 0.46)), 0, a0, a0 + 80, (250, 250, 250), 3, cv2.LINE_AA)  # rim light
    angle = float(rng.uniform(0, 2 * np.pi))
    handle = (int(c[0] + np.cos(angle) * d * 0.55), int(c[1] + np.sin(angle) * d * 0.55))
    axes = (int(0.3 * PX), int(0.2 * PX))
    cv2.ellipse(layer, handle, axes, float(np.degrees(angle)), 0, 360, body, int(0.12 * PX))
    cv2.ellipse(alpha, handle, axes, float(np.degrees(angle)), 0, 360, 255, int(0.12 * PX))
    return layer, alpha


_DRAW = {"card": _card, "cup": _cup, "phone": _phone}


def lay_object(
    image: np.ndarray,
    corners: Sequence[Sequence[float]],
    kind: str,
    rng: np.random.Generator,
    night: bool = False,
    centre: tuple[float, float] | None = None,
    card_colour: tuple[int, int, int] | None = None,
) -> np.ndarray:
    """A copy of ``image`` with a ``kind`` object lying on the board (``centre``: tiles from the tile area's
    top-left corner; random inside the board when None; ``card_colour``: a card's BGR, e.g. white or a neutral
    grey); ``corners``: the label's tile-area corners."""
    layer, alpha = _card(rng, card_colour) if kind == "card" else _DRAW[kind](rng)
    cx, cy = centre if centre is not None else (rng.uniform(1.3, 5.7), rng.uniform(1.3, 5.7))
    h, w = alpha.shape
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(0, 180)), 1.0)
    turn[:, 2] += ((MARGIN + cx) * PX - w / 2, (MARGIN + cy) * PX - h / 2)
    colour = cv2.warpAffine(layer, turn, (SIDE, SIDE))
    cover = cv2.warpAffine(alpha, turn, (SIDE, SIDE))
    offset = rng.uniform(0.05, 0.25, 2) * PX * rng.choice([-1, 1], 2)
    shadow = cv2.warpAffine(cover, np.float32([[1, 0, offset[0]], [0, 1, offset[1]]]), (SIDE, SIDE))
    plane = np.float32([[MARGIN, MARGIN], [MARGIN + 7, MARGIN], [MARGIN + 7, MARGIN + 7], [MARGIN, MARGIN + 7]]) * PX
    to_photo = cv2.getPerspectiveTransform(plane, np.float32(corners))
    size = (image.shape[1], image.shape[0])
    colour_f = cv2.warpPerspective(colour, to_photo, size, flags=cv2.INTER_AREA).astype(np.float32)
    cover_f = cv2.GaussianBlur(cv2.warpPerspective(cover, to_photo, size).astype(np.float32) / 255.0, (3, 3), 0.7)
    blur = int(max(3, np.linalg.norm(np.subtract(corners[1], corners[0])) / 28)) | 1
    shadow_f = cv2.GaussianBlur(cv2.warpPerspective(shadow, to_photo, size).astype(np.float32) / 255.0, (blur, blur), 0)
    out = image.astype(np.float32) * (1.0 - rng.uniform(0.25, 0.5) * shadow_f)[..., None]
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    if night:
        gain = np.full(grey.shape, rng.uniform(0.08, 0.3), np.float32)
    else:  # the frame's smooth light around the object
        gain = np.clip(cv2.blur(grey, (151, 151)) / max(float(np.percentile(grey, 90)), 1.0) * 1.3, 0.5, 1.1)
    lit = cv2.GaussianBlur(colour_f * gain[..., None], (3, 3), 0.6) + rng.normal(0.0, 2.0, colour_f.shape)
    out = out * (1.0 - cover_f[..., None]) + lit * cover_f[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)
