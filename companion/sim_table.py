"""The simulated table: what the companion sees and shows while bots play.

``run --sim`` plays a game with bots (:mod:`companion.simulate`). This module
puts the rest of the product around that game, with the same parts the real
service uses and only the hardware simulated:

* the **simulated camera** (``hardware.sim_camera.SimCamera``) photographs the
  table after every push and every move (rendered overhead photos);
* the **board reader** (``vision.reader.BoardReader``) reads each photo;
* the read is checked the way the referee works: the legal successors of the
  tracked board (every legal gate x every spare rotation) are scored against
  the photo, and the best must be the push that was really made; the moved
  pawn must be seen on its square;
* the **guidance** (whose turn, then the reachable squares) goes through the
  painter and the colour pipeline to the **simulated LED strip**, drawn in the
  terminal and saved as a picture.

It reports what vision and the LEDs did; it never changes the game (the
bots' events are the truth). Like the command line, this is a composition
root: the only place in ``companion`` that picks concrete hardware and vision.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2

from companion.board import Board, Color, Gate, Tile
from companion.game import GameState
from companion.guidance import Guidance
from companion.observation import Observation
from companion.rules import Phase
from hardware.layout import DEFAULT_LAYOUT, load_layout
from hardware.leds import SimStrip
from hardware.painter import Painter
from hardware.sim_camera import SimCamera, SimPosition
from vision.reader import BoardReader


@dataclass(frozen=True)
class PushCheck:
    """How the photo after a push was read: the best legal successor and how clearly it won."""

    seen: bool
    gate: Gate | None = None
    spare: Tile | None = None
    margin: float = 0.0
    reason: str | None = None

    def describe(self, actual_gate: Gate, actual_spare: Tile) -> str:
        if not self.seen:
            return f"vision: photo not read ({self.reason})"
        if self.gate is actual_gate and self.spare == actual_spare:
            return f"vision: push {self.gate} {self.spare} confirmed (margin {self.margin:.1f} over the next candidate)"
        return f"vision: MISREAD push as {self.gate} {self.spare}, it was {actual_gate} {actual_spare}"


def successors(board: Board) -> list[tuple[Gate, Tile, Board]]:
    """Every board one legal push can make: each legal gate x each distinct spare rotation."""
    return [(gate, rot, board.push(gate, rot)) for gate in board.legal_pushes() for rot in board.spare.rotations()]


def check_push(observation: Observation, before: Board) -> PushCheck:
    """Score the legal successors of ``before`` against a photo; the referee's decision rule."""
    if not observation.readable:
        return PushCheck(False, reason=observation.reason or "unreadable")
    scored = sorted(
        ((observation.score(board.tiles), gate, rot) for gate, rot, board in successors(before)),
        key=lambda item: item[0],
        reverse=True,
    )
    best, gate, rot = scored[0]
    margin = best - scored[1][0] if len(scored) > 1 else float("inf")
    return PushCheck(True, gate, rot, margin)


class SimTable:
    """Camera, reader and LEDs around a simulated game (see the module docstring).

    What it has to say collects in :meth:`drain` (lines to print after the
    turn's events); ``state_dir`` gets ``camera.jpg`` (the last photo) and
    ``leds.png`` (the last LED frame).
    """

    def __init__(
        self,
        state_dir: Path,
        *,
        seed: int = 0,
        size: tuple[int, int] = (1024, 768),
        show_leds: bool = True,
    ) -> None:
        self._lines: list[str] = []
        self._state_dir = state_dir
        self._show_leds = show_leds
        self._current: SimPosition | None = None
        self.camera = SimCamera(self._positions(), seed=seed, size=size, frames_per_board=1, hands=False)
        self.reader = BoardReader()
        layout = load_layout(DEFAULT_LAYOUT)
        self.strip = SimStrip(layout=layout, limit=100)
        self.painter = Painter(layout, clock=lambda: 0.0)
        self._now = 0.0
        self._pushes = 0
        self.stats = {"photos": 0, "pushes_confirmed": 0, "pushes": 0, "pawns_seen": 0, "moves": 0}

    def _positions(self) -> Iterator[SimPosition]:
        """What the camera sees: always the table as it is now (set just before each capture)."""
        while True:
            assert self._current is not None, "the table is photographed only after a push or a move"
            yield self._current

    # ---- hooks called by the simulated game

    def before_turn(self, state: GameState) -> None:
        """Light the current player's pawn square (whose turn it is)."""
        if state.phase.playing:
            self._paint(Guidance.before_push(state.board, state.current, night=state.phase is Phase.NIGHT))

    def after_push(self, before: Board, state: GameState) -> None:
        """Photograph and read the board after the push; then light the reachable squares."""
        board = state.board
        assert board.last_push is not None
        observation = self._photograph(state, "push")
        result = check_push(observation, before)
        self.stats["pushes"] += 1
        laid = board.tile(board.last_push.entry)
        if result.seen and result.gate is board.last_push and result.spare == laid:
            self.stats["pushes_confirmed"] += 1
        self._say("# " + result.describe(board.last_push, laid))
        self._pushes += 1
        guidance = Guidance.after_push(
            board,
            state.current,
            night=state.phase is Phase.NIGHT,
            public_targets=frozenset(state.public_targets(state.current)),
            pushed_gate=board.last_push,
            push_serial=self._pushes,
        )
        self._paint(guidance, show=True)

    def after_move(self, player: Color, state: GameState) -> None:
        """Photograph the board after the move and look for the pawn that moved."""
        observation = self._photograph(state, "move")
        self.stats["moves"] += 1
        where = state.board.pawn(player)
        if not observation.readable:
            self._say(f"# vision: photo after the move not read ({observation.reason})")
            return
        seen = observation.pawns.get(player)
        if seen == where:
            self.stats["pawns_seen"] += 1
            self._say(f"# vision: {player} pawn seen on {list(where)}")
        elif seen is None:
            self._say(f"# vision: {player} pawn not seen (it is on {list(where)})")
        else:
            self._say(f"# vision: {player} pawn seen on {list(seen)}, but it is on {list(where)}")

    def drain(self) -> list[str]:
        """The lines said since the last call."""
        lines, self._lines = self._lines, []
        return lines

    def close(self) -> None:
        self.camera.close()
        self.strip.close()

    def summary(self) -> str:
        s = self.stats
        return (
            f"vision confirmed {s['pushes_confirmed']}/{s['pushes']} pushes and saw {s['pawns_seen']}/{s['moves']} "
            f"moved pawns in {s['photos']} simulated photos; last photo {self._state_dir / 'camera.jpg'}, "
            f"last LED frame {self._state_dir / 'leds.png'}"
        )

    # ---- internals

    def _say(self, line: str) -> None:
        self._lines.append(line)

    def _photograph(self, state: GameState, event: str) -> Observation:
        treasures = {divmod(i, 7): name for i in range(49) if (name := state.treasure_at(divmod(i, 7)))}
        self._current = SimPosition(state.board, treasures, event)
        self.camera.set_mode("night" if state.phase is Phase.NIGHT else "day")
        frame = self.camera.capture()
        self.stats["photos"] += 1
        cv2.imwrite(str(self._state_dir / "camera.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
        return self.reader.read(frame)

    def _paint(self, guidance: Guidance, show: bool = False) -> None:
        self._now += 1.0
        self.painter.update(guidance, now=self._now)
        frame = self.painter.frame(now=self._now + 0.5)  # after the push flash: the steady guidance
        self.strip.show(frame.colours, night=frame.night)
        if show and self._show_leds:
            self._say(self.strip.render_ansi())
            self.strip.render_png(self._state_dir / "leds.png")
