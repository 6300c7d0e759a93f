"""A clean rendered board and its rectified view read at the label's corners: the canvas on which the
occlusion tests lay objects or light (so what they add is the only thing that can flag the board)."""

from __future__ import annotations

import dataclasses
import random
from functools import cache

import numpy as np

from companion.board import random_setup
from vision.reader import BoardReader
from vision.rectify import Rectified
from vision.render import render_photo

SIZE = (1280, 960)


@cache
def labelled(seed: int, look: str, lighting: str) -> tuple[np.ndarray, list[list[float]]]:
    """A clean board photo (team renderer, :data:`SIZE`) and its label's corners; cached, never to be written into."""
    board, _ = random_setup(random.Random(seed))
    image, label = render_photo(board, seed=seed, look=look, size=SIZE, occlusion=False, lighting=lighting)
    return image, label["corners"]


def clean_rect(seed: int = 41, look: str = "classic", lighting: str = "day") -> Rectified:
    """The rectified view of a clean rendered board, read at its label's corners."""
    image, corners = labelled(seed, look, lighting)
    rect = BoardReader().read_detailed(image, corners=corners).rect
    assert rect is not None
    return rect


def with_pool(rect: Rectified, centre: tuple[float, float], sigma: float, gain: float) -> Rectified:
    """``rect`` with a white pool of light added in linear light (``centre`` in tiles, row and column, from the
    tile area's top-left corner; ``sigma`` in tiles)."""
    t, m = rect.tile_px, rect.margin_px
    linear = (rect.image.astype(np.float32) / 255.0) ** 2.2
    yy, xx = np.mgrid[0 : rect.image.shape[0], 0 : rect.image.shape[1]].astype(np.float32)
    d2 = (yy - m - centre[0] * t) ** 2 + (xx - m - centre[1] * t) ** 2
    pool = gain * np.exp(-d2 / (2 * (sigma * t) ** 2))[..., None]
    lit = np.clip((linear + pool) ** (1 / 2.2) * 255.0, 0, 255).astype(np.uint8)
    return dataclasses.replace(rect, image=lit)
