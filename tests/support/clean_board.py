"""A clean rendered board and its rectified view read at the label's corners: the canvas on which the
occlusion tests lay objects or light (so what they add is the only thing that can flag the board)."""

from __future__ import annotations

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
