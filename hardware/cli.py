"""``labyrinth-companion leds``: paint the guidance for a board state on the simulated strip.

The player has just pushed: their reachable squares light in their colour;
``--illegal-gate`` makes that gate blink as well. Two seconds (20 frames at
10 fps) go through the same painter, colour pipeline and simulated strip the
service uses; ``--json`` prints the final bytes of every frame (RGB order),
``--png`` draws the first frame, and without ``--json`` the board is drawn in
the terminal.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.board import Board, Color, Gate
from companion.errors import UsageError
from companion.guidance import Guidance
from companion.statefile import load_state
from hardware.colour import ColourSettings
from hardware.layout import DEFAULT_LAYOUT, load_layout
from hardware.leds import SimStrip
from hardware.painter import Painter, PainterConfig

FPS = 10
SECONDS = 2


def paint_frames(
    board: Board,
    player: Color,
    *,
    night: bool = False,
    illegal_gate: Gate | None = None,
    layout_name: str = DEFAULT_LAYOUT,
    settings: ColourSettings | None = None,
    painter_config: PainterConfig | None = None,
) -> tuple[SimStrip, list[list[list[int]]]]:
    """The strip after showing 2 s of "player has just pushed", and every frame's final RGB bytes."""
    layout = load_layout(layout_name)
    guidance = Guidance.after_push(board, player, illegal_gate=illegal_gate, night=night)
    config = painter_config or PainterConfig(fps=FPS)
    painter = Painter(layout, config, clock=lambda: 0.0)
    painter.update(guidance, now=0.0)
    strip = SimStrip(layout=layout, settings=settings)
    frames = []
    for frame in painter.frames(config.fps * SECONDS):
        frames.append(strip.show(frame.colours, night=frame.night).as_lists())
    return strip, frames


def run(args: argparse.Namespace) -> int:
    board = load_state(args.state)
    player = Color.parse(args.player)
    gate = None if args.illegal_gate is None else Gate.parse(args.illegal_gate)
    strip, frames = paint_frames(board, player, night=args.night, illegal_gate=gate, layout_name=args.layout)
    if args.png:
        try:
            strip.render_png(args.png, index=0)
        except OSError as exc:
            raise UsageError(f"cannot write {args.png!r}: {exc.strerror or exc}") from None
    if args.json:
        out: dict[str, Any] = {"layout": args.layout, "fps": FPS, "frames": frames}
        print(json.dumps(out, separators=(",", ":")))
    else:
        print(strip.render_ansi(index=0))
        lit = sum(1 for rgb in frames[0] if any(rgb))
        peak = max(s.current_ma for s in strip.frames)
        print(f"{player} after the push: {lit} LEDs lit, peak {peak:.0f} mA, {len(frames)} frames at {FPS} fps")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "leds",
        help="show the LED guidance for a board state (simulated strip)",
        description="Paint the guidance 'PLAYER has just pushed' for a board state on the simulated LED strip.",
    )
    p.add_argument("state", metavar="STATE.json", help="board state (FORMATS.md §4), '-' for stdin")
    p.add_argument("--player", required=True, metavar="COLOR", help="red, yellow, green or blue")
    p.add_argument("--night", action="store_true", help="glow night phase: dim red/amber only")
    p.add_argument("--illegal-gate", metavar="GATE", help="also blink this gate as an illegal push")
    p.add_argument("--layout", default=DEFAULT_LAYOUT, metavar="NAME", help=f"LED layout (default {DEFAULT_LAYOUT})")
    p.add_argument("--png", metavar="OUT", help="write a picture of the first frame")
    p.add_argument("--json", action="store_true", help='print {"layout", "fps", "frames"} of the final RGB bytes')
    p.set_defaults(func=run)
