"""What vision reports about one frame: a plain value type.

Vision and the referee share no code but this module (and the board's value
types). An :class:`Observation` carries, for each of the 49 squares, the
probability that each side is open, so the referee can score any candidate
board (the legal successors of the tracked state) against the frame without
calling back into vision. The most likely valid shape per square is given too,
for display and for reading a board from scratch.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from companion.board import SIZE, SQUARES, Color, Square, Tile

Point = tuple[float, float]


@dataclass(frozen=True)
class TileReading:
    """One square's reading.

    ``edges`` are the probabilities that the N, E, S, W sides are open;
    ``openings`` the most likely valid shape; ``confidence`` (0..1) how sure the
    reader is of that shape. ``treasure`` is True when a picture was seen, and
    ``descriptor`` a compact appearance vector to recognise the picture later.
    """

    openings: Tile
    confidence: float
    edges: tuple[float, float, float, float] = (0.5, 0.5, 0.5, 0.5)
    treasure: bool = False
    descriptor: tuple[float, ...] = ()

    def log_likelihood(self, tile: int) -> float:
        """log P(evidence | the square holds ``tile``), from the four edge probabilities."""
        total = 0.0
        for bit, p in zip((1, 2, 4, 8), self.edges, strict=True):
            q = min(max(p, 1e-4), 1 - 1e-4)
            total += math.log(q if tile & bit else 1.0 - q)
        return total


@dataclass(frozen=True)
class Observation:
    """A frame's reading, or why it could not be read.

    When ``occluded`` is True (a hand over the board, motion, a frame that
    cannot be read reliably) ``reason`` says why and ``tiles``/``pawns`` must
    not be trusted (they may be empty).
    """

    tiles: tuple[TileReading, ...] = ()
    pawns: Mapping[Color, Square] = field(default_factory=dict)
    corners: tuple[Point, Point, Point, Point] | None = None
    occluded: bool = False
    reason: str | None = None
    lighting: str = "day"
    pawn_confidence: Mapping[Color, float] = field(default_factory=dict)

    @classmethod
    def unreadable(cls, reason: str, corners: Sequence[Point] | None = None, lighting: str = "day") -> Observation:
        """An observation that says the board cannot be read now, and why."""
        return cls(
            occluded=True,
            reason=reason,
            corners=None if corners is None else tuple(tuple(map(float, p)) for p in corners),  # type: ignore[arg-type]
            lighting=lighting,
        )

    @property
    def readable(self) -> bool:
        return not self.occluded and len(self.tiles) == SQUARES

    def tile(self, square: Square) -> TileReading:
        return self.tiles[square[0] * SIZE + square[1]]

    def tile_rows(self) -> list[list[Tile]]:
        """The most likely shape of every square, as 7 rows."""
        return [[self.tiles[r * SIZE + c].openings for c in range(SIZE)] for r in range(SIZE)]

    def treasure_squares(self) -> list[Square]:
        return [divmod(i, SIZE) for i, t in enumerate(self.tiles) if t.treasure]

    def score(self, tiles: Sequence[int]) -> float:
        """Log-likelihood of a candidate board's 49 tiles (row-major) given this frame.

        The referee compares legal successor boards with this; higher is better.
        """
        if not self.readable:
            return float("-inf")
        return sum(reading.log_likelihood(t) for reading, t in zip(self.tiles, tiles, strict=True))

    def to_json(self) -> dict[str, object]:
        """A label-like dict (FORMATS.md §5 keys) for logs and debugging."""
        out: dict[str, object] = {"occluded": self.occluded, "lighting": self.lighting}
        if self.reason:
            out["reason"] = self.reason
        if self.corners is not None:
            out["corners"] = [list(p) for p in self.corners]
        if self.readable:
            out["tiles"] = [[str(t) for t in row] for row in self.tile_rows()]
            out["pawns"] = {str(c): list(sq) for c, sq in self.pawns.items()}
            out["treasures"] = [list(sq) for sq in self.treasure_squares()]
        return out
