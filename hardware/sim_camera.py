"""The simulated camera: frames of a simulated game, rendered like overhead photos.

By default :class:`SimCamera` plays a random legal game (:func:`simulated_game`:
a push at a legal gate with a random spare rotation, then a move to a
reachable square, player after player) and renders each position with the
vision renderer (``vision.render.render_photo``, imported when the first
frame is rendered). Each position is shown for ``frames_per_board`` frames;
with ``hands`` the first of them shows hands over the board, as a real push
would. Night mode renders the darkened-room look.

Any other frame source plugs in as ``source(index, mode) -> BGR frame``, so
the simulator also serves frames from elsewhere (a test pattern, another
renderer). :meth:`SimCamera.fail_next` makes the next reads fail as if the
camera were unplugged, for tests and demos of the recovery path.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.board import Board, Color, Square, index_square, push_line, random_setup
from hardware.camera import Camera, CameraError, CameraUnavailable, EndOfFrames

FrameSource = Callable[[int, str], np.ndarray]


@dataclass(frozen=True)
class SimPosition:
    """One position of a simulated game: the board, the treasure on each square, what just happened."""

    board: Board
    treasures: Mapping[Square, str]
    event: str


def simulated_game(seed: int, players: int = 4, turns: int | None = None) -> Iterator[SimPosition]:
    """A random legal game: the start, then for each turn the position after the push and after the move."""
    rng = random.Random(seed)
    colors = list(Color)[:players]
    board, names = random_setup(rng, "classic", colors)
    cells: list[str | None] = list(names[:49])
    spare_name = names[49]

    def treasures() -> dict[Square, str]:
        return {index_square(i): name for i, name in enumerate(cells) if name is not None}

    yield SimPosition(board, treasures(), "start")
    turn = 0
    while turns is None or turn < turns:
        player = colors[turn % len(colors)]
        gate = rng.choice(board.legal_pushes())
        laid = rng.choice(board.spare.rotations())
        cells, spare_name = push_line(cells, gate, spare_name)
        board = board.push(gate, laid)
        yield SimPosition(board, treasures(), f"{player} pushes {gate}")
        target = rng.choice(board.reachable(board.pawn(player)))
        board = board.with_pawns({**board.pawns, player: target})
        yield SimPosition(board, treasures(), f"{player} moves to {list(target)}")
        turn += 1


class SimCamera(Camera):
    """Rendered frames of a simulated game (or of any ``source``), with the camera interface.

    ``positions`` replaces the random game (boards, or :class:`SimPosition`);
    ``renderer`` replaces ``vision.render.render_photo`` (same signature).
    :attr:`last_label` and :attr:`position` tell a test what the last frame
    shows.
    """

    backend = "sim"

    def __init__(
        self,
        positions: Iterable[Board | SimPosition] | None = None,
        *,
        seed: int = 0,
        look: str | None = None,
        size: tuple[int, int] = (820, 616),
        frames_per_board: int = 2,
        hands: bool = True,
        players: int = 4,
        source: FrameSource | None = None,
        renderer: Callable[..., tuple[np.ndarray, dict[str, Any]]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if frames_per_board < 1:
            raise CameraError(f"frames_per_board must be at least 1, got {frames_per_board}")
        self.seed = seed
        self.look = look
        self.size = (int(size[0]), int(size[1]))
        self.frames_per_board = frames_per_board
        self.hands = hands
        self._source = source
        self._renderer = renderer
        games = simulated_game(seed, players) if positions is None else iter(positions)
        self._positions: Iterator[Board | SimPosition] = games
        self.position: SimPosition | None = None
        self.last_label: dict[str, Any] | None = None
        self._index = 0
        self._shown = 0
        self._fail = 0
        self._fail_message = ""

    def describe(self) -> str:
        return f"simulator seed {self.seed}" if self._source is None else "simulator (custom source)"

    def fail_next(self, count: int = 1, message: str = "simulated camera unplugged") -> None:
        """Make the next ``count`` reads fail as a lost camera would."""
        self._fail = count
        self._fail_message = message

    def _open(self) -> None:
        if self._source is None and self._renderer is None:
            try:
                from vision.render import render_photo
            except ImportError as exc:
                raise CameraError(
                    f"the sim camera renders with vision.render, which cannot be imported ({exc}); "
                    "pass source=... to serve frames from elsewhere"
                ) from None
            self._renderer = render_photo

    def _read(self) -> np.ndarray:
        if self._fail > 0:
            self._fail -= 1
            raise CameraUnavailable(self._fail_message)
        index = self._index
        if self._source is not None:
            frame = self._source(index, self.mode)
            if frame is None:
                raise EndOfFrames("the simulated frame source has no more frames")
            self._index += 1
            return frame
        first = self.position is None or self._shown >= self.frames_per_board
        if first:
            try:
                item = next(self._positions)
            except StopIteration:
                raise EndOfFrames("the simulated game is over") from None
            self.position = item if isinstance(item, SimPosition) else SimPosition(item, {}, "position")
            self._shown = 0
        assert self.position is not None and self._renderer is not None
        occluded = self.hands and self._shown == 0 and self.frames_per_board > 1 and self._index > 0
        options: dict[str, Any] = {}
        if self.position.treasures:
            options["treasures"] = dict(self.position.treasures)
        image, label = self._renderer(
            self.position.board,
            seed=self.seed,
            look=self.look,
            lighting=self.mode,
            size=self.size,
            occlusion=occluded,
            **options,
        )
        self._shown += 1
        self._index += 1
        self.last_label = label
        return image


__all__ = ["FrameSource", "SimCamera", "SimPosition", "simulated_game"]
