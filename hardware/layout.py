"""Where the LEDs are: squares and gates to LED indices.

Where the LEDs go is the maker's choice (DESIGN.md §3), so a layout is data:
a preset by name, or a table in the config file. Each square and gate maps to
one or more LED indices (a square may have several LEDs; on an 8x8 matrix the
two gates of a line share one LED). Squares or gates without an LED are
simply not shown.

Presets
-------
``grid49+gates12`` (the default, 61 LEDs)
    One LED per square, serpentine from the top-left square: LED ``r*7 + c``
    on even rows, ``r*7 + (6-c)`` on odd rows; then LEDs 49–60 for the gates,
    clockwise from the top-left: ``N1 N3 N5 E1 E3 E5 S5 S3 S1 W5 W3 W1``.

``matrix8x8`` (64 LEDs, a common WS2812 8x8 panel, rows wired left to right)
    LED ``row*8 + col``. Square ``(r, c)`` is matrix pixel ``(r, c)``: the
    board fills the top-left 7x7. The free right column and bottom row show
    the gates: the two gates of row ``k`` (``Wk`` and ``Ek``) share pixel
    ``(k, 7)``, the two gates of column ``k`` (``Nk`` and ``Sk``) share pixel
    ``(7, k)``. A line's pixel is enough to point at a push (the rules forbid
    only the reverse of the last push, which is on the same line); the other
    margin pixels stay dark. Panels wired in a serpentine (odd rows right to
    left) use the ``matrix8x8-serpentine`` preset.

Config form (TOML ``[layout]`` or a dict)::

    preset = "grid49+gates12"          # or build one:
    name = "my-frame"
    count = 61
    [layout.squares]                   # "r,c" -> LED or list of LEDs
    "0,0" = 0
    [layout.gates]                     # gate -> LED or list of LEDs
    N1 = 49
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.board import SIZE, Gate, InvalidStateError, Square, parse_square
from companion.errors import ConfigError

#: Gates in clockwise order from the top-left, the order of the default preset's gate LEDs.
GATES_CLOCKWISE: tuple[Gate, ...] = tuple(
    Gate(name) for name in ("N1", "N3", "N5", "E1", "E3", "E5", "S5", "S3", "S1", "W5", "W3", "W1")
)


@dataclass(frozen=True)
class Layout:
    """A mapping from squares and gates to LED indices on one strip of ``count`` LEDs."""

    name: str
    count: int
    squares: Mapping[Square, tuple[int, ...]]
    gates: Mapping[Gate, tuple[int, ...]]

    def __post_init__(self) -> None:
        if self.count <= 0:
            raise ConfigError(f"layout {self.name!r}: LED count must be positive, got {self.count}")
        for what, table in (("square", self.squares), ("gate", self.gates)):
            for key, leds in table.items():
                bad = [i for i in leds if not 0 <= i < self.count]
                if bad:
                    raise ConfigError(
                        f"layout {self.name!r}: {what} {key} uses LED {bad[0]}, "
                        f"the strip has {self.count} (0..{self.count - 1})"
                    )

    def square_leds(self, square: Square) -> tuple[int, ...]:
        return self.squares.get(square, ())

    def gate_leds(self, gate: Gate) -> tuple[int, ...]:
        return self.gates.get(gate, ())

    def positions(self) -> dict[int, tuple[float, float]]:
        """LED index -> (x, y) in square units (square ``(r, c)`` centred at ``(c + .5, r + .5)``).

        Gates sit half a square outside the board edge. Used by the simulator's
        pictures; an LED mapped to several places takes the first.
        """
        out: dict[int, tuple[float, float]] = {}
        for (r, c), leds in sorted(self.squares.items()):
            for i in leds:
                out.setdefault(i, (c + 0.5, r + 0.5))
        for gate in GATES_CLOCKWISE:
            for i in self.gates.get(gate, ()):
                out.setdefault(i, gate_position(gate))
        return out

    def to_config(self) -> dict[str, Any]:
        """The config-table form (round-trips through :func:`layout_from_config`)."""
        return {
            "name": self.name,
            "count": self.count,
            "squares": {f"{r},{c}": list(v) for (r, c), v in sorted(self.squares.items())},
            "gates": {str(g): list(v) for g, v in sorted(self.gates.items(), key=lambda kv: kv[0].value)},
        }

    def __repr__(self) -> str:
        return f"<Layout {self.name!r}: {self.count} LEDs, {len(self.squares)} squares, {len(self.gates)} gates>"


def gate_position(gate: Gate) -> tuple[float, float]:
    """Where a gate's LED sits, in square units, half a square outside the board."""
    k = gate.index + 0.5
    side = gate.value[0]
    return {"N": (k, -0.5), "S": (k, SIZE + 0.5), "W": (-0.5, k), "E": (SIZE + 0.5, k)}[side]


def grid49_gates12() -> Layout:
    squares = {
        (r, c): (r * SIZE + (c if r % 2 == 0 else SIZE - 1 - c),) for r in range(SIZE) for c in range(SIZE)
    }
    gates = {gate: (SIZE * SIZE + k,) for k, gate in enumerate(GATES_CLOCKWISE)}
    return Layout("grid49+gates12", SIZE * SIZE + len(gates), squares, gates)


def matrix8x8(serpentine: bool = False) -> Layout:
    def led(row: int, col: int) -> int:
        return row * 8 + (7 - col if serpentine and row % 2 else col)

    squares = {(r, c): (led(r, c),) for r in range(SIZE) for c in range(SIZE)}
    gates: dict[Gate, tuple[int, ...]] = {}
    for gate in Gate:
        k = gate.index
        gates[gate] = (led(k, 7),) if gate.value[0] in "EW" else (led(7, k),)
    return Layout("matrix8x8" + ("-serpentine" if serpentine else ""), 64, squares, gates)


PRESETS = {
    "grid49+gates12": grid49_gates12,
    "matrix8x8": matrix8x8,
    "matrix8x8-serpentine": lambda: matrix8x8(serpentine=True),
}
DEFAULT_LAYOUT = "grid49+gates12"


def preset(name: str) -> Layout:
    try:
        return PRESETS[name]()
    except KeyError:
        raise ConfigError(f"unknown LED layout {name!r}; presets: {', '.join(PRESETS)}") from None


def _leds(value: Any, where: str) -> tuple[int, ...]:
    items: Iterable[Any] = value if isinstance(value, (list, tuple)) else [value]
    out = []
    for item in items:
        if not isinstance(item, int) or isinstance(item, bool):
            raise ConfigError(f"layout {where}: LED index must be an integer, got {item!r}")
        out.append(item)
    return tuple(out)


def layout_from_config(data: Mapping[str, Any] | str | None) -> Layout:
    """A layout from a preset name or a config table (see the module docstring)."""
    if data is None:
        return preset(DEFAULT_LAYOUT)
    if isinstance(data, str):
        return preset(data)
    if not isinstance(data, Mapping):
        raise ConfigError(f"layout must be a preset name or a table, got {type(data).__name__}")
    if "preset" in data:
        extra = sorted(set(data) - {"preset"})
        if extra:
            raise ConfigError(f"layout: 'preset' cannot be combined with {extra[0]!r}")
        return preset(str(data["preset"]))
    unknown = sorted(set(data) - {"name", "count", "squares", "gates"})
    if unknown:
        raise ConfigError(f"unknown layout key {unknown[0]!r}; use preset, or name, count, squares, gates")
    name = str(data.get("name", "custom"))
    if not isinstance(data.get("count"), int):
        raise ConfigError(f"layout {name!r}: 'count' (number of LEDs) is required")
    squares: dict[Square, tuple[int, ...]] = {}
    for key, value in dict(data.get("squares") or {}).items():
        try:
            square = parse_square(key)
        except InvalidStateError as exc:
            raise ConfigError(f"layout {name!r}: {exc}") from None
        squares[square] = _leds(value, f"{name!r} square {key}")
    gates: dict[Gate, tuple[int, ...]] = {}
    for key, value in dict(data.get("gates") or {}).items():
        try:
            gate = Gate.parse(key)
        except InvalidStateError as exc:
            raise ConfigError(f"layout {name!r}: {exc}") from None
        gates[gate] = _leds(value, f"{name!r} gate {key}")
    return Layout(name, data["count"], squares, gates)


def load_layout(spec: str | Path) -> Layout:
    """A preset name, or a TOML file holding a layout (top level or a ``[layout]`` table)."""
    text = str(spec)
    if text in PRESETS:
        return preset(text)
    path = Path(text)
    if path.suffix.lower() != ".toml":
        return preset(text)  # raises the "unknown layout" error listing the presets
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read layout file {text!r}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"layout file {text!r} is not valid TOML: {exc}") from None
    return layout_from_config(data.get("layout", data))


__all__ = [
    "DEFAULT_LAYOUT",
    "GATES_CLOCKWISE",
    "PRESETS",
    "Layout",
    "gate_position",
    "layout_from_config",
    "load_layout",
    "preset",
]
