"""Vision benchmarks for ``labyrinth-companion bench``: the reader's speed on a rendered photo.

* ``read_ms`` — median wall time of one full :meth:`BoardReader.read` (locate,
  rectify, occlusion, pawns, tiles, treasures) of a 1640x1232 rendered day photo,
  with OpenCV limited to one thread (the Pi runs the reader beside the service).
  The rectify maps are built afresh for each read, as for a live frame.
* ``read_constrained_ms`` — the Pi's steady-state path, also single-threaded: the
  board geometry comes from calibration (a fixed camera: ``corners`` in
  ``calibration.json``, so locating is skipped), the frame is read and the
  referee's ~45 legal successor boards (12 gates x spare rotations, and "no push")
  are scored against it with :func:`score_candidates`. This is what each camera
  frame costs during a game.

The thread count is restored afterwards, so the benchmark leaves no global state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

import cv2
import numpy as np

from companion.bench import median_ms
from companion.board import Board, random_setup

PHOTO_SIZE = (1640, 1232)
REPEAT = 15


@cache
def _scene() -> tuple[np.ndarray, Board, tuple[tuple[float, float], ...]]:
    from vision.render import render_photo

    board, _ = random_setup(random.Random(11))
    image, label = render_photo(board, seed=11, size=PHOTO_SIZE)
    corners = tuple((float(x), float(y)) for x, y in label["corners"])
    return image, board, corners


def _single_thread(func: Callable[[], object]) -> float:
    before = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        return median_ms(func, REPEAT)
    finally:
        cv2.setNumThreads(before)


def candidate_boards(board: Board) -> list[Board]:
    """The legal successors of ``board``: every legal gate x distinct spare rotation, plus no push."""
    out = [board]
    for gate in board.legal_pushes():
        for spare in board.spare.rotations():
            out.append(board.push(gate, spare))
    return out


def bench_read() -> float:
    from vision.reader import BoardReader
    from vision.rectify import forget_maps

    image, _, _ = _scene()
    reader = BoardReader()

    def read_live_frame() -> object:
        # One photo read again and again would find bit-identical corners and reuse the
        # rectify maps; live frames' located corners differ by noise, so pay for them.
        forget_maps()
        return reader.read(image)

    return _single_thread(read_live_frame)


def bench_read_constrained() -> float:
    from vision.reader import BoardReader, score_candidates

    image, board, corners = _scene()
    reader = BoardReader(calibration={"corners": [list(p) for p in corners]})
    candidates = candidate_boards(board)
    return _single_thread(lambda: score_candidates(reader.read(image), candidates))


def benchmarks() -> dict[str, Callable[[], float]]:
    return {"read_ms": bench_read, "read_constrained_ms": bench_read_constrained}
