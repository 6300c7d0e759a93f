"""The three editions: movable-tile split, start colours and treasure names."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.pieces import Color, Square, Tile


@dataclass(frozen=True)
class Edition:
    """What differs between editions: the movable-tile split, start colours and treasure names.

    ``fixed_treasures`` names the pictures on the 12 fixed T-junctions (row-major
    order of their squares); ``movable_treasures`` the 12 pictures on movable
    tiles (the first 6 on T-junctions, the other 6 on corners).
    """

    name: str
    plain_straights: int
    plain_corners: int
    start_colors: Mapping[Square, Color]
    fixed_treasures: tuple[str, ...]
    movable_treasures: tuple[str, ...]
    treasure_t: int = 6
    treasure_corners: int = 6

    def __post_init__(self) -> None:
        movable = self.plain_straights + self.plain_corners + self.treasure_t + self.treasure_corners
        if movable != 34:
            raise ValueError(f"edition {self.name!r} has {movable} movable tiles, the board needs 34")
        if len(self.fixed_treasures) != 12 or len(self.movable_treasures) != 12:
            raise ValueError(f"edition {self.name!r} needs 12 fixed and 12 movable treasures")

    @property
    def treasures(self) -> tuple[str, ...]:
        return self.fixed_treasures + self.movable_treasures

    def movable_tiles(self) -> list[tuple[Tile, str | None]]:
        """The 34 movable tiles in a canonical orientation, with their treasure (or ``None``)."""
        tiles: list[tuple[Tile, str | None]] = []
        tiles += [(Tile.NES, name) for name in self.movable_treasures[: self.treasure_t]]
        tiles += [(Tile.NE, name) for name in self.movable_treasures[self.treasure_t :]]
        tiles += [(Tile.NS, None)] * self.plain_straights
        tiles += [(Tile.NE, None)] * self.plain_corners
        return tiles


_DEFAULT_STARTS = {(0, 0): Color.RED, (0, 6): Color.YELLOW, (6, 6): Color.GREEN, (6, 0): Color.BLUE}

EDITIONS: dict[str, Edition] = {
    e.name: e
    for e in (
        Edition(
            name="classic",
            plain_straights=12,
            plain_corners=10,
            start_colors=_DEFAULT_STARTS,
            fixed_treasures=(
                "book of spells", "bag of gold", "treasure map", "crown", "keys", "skull",
                "ring", "treasure chest", "emerald", "sword", "candlestick", "helmet",
            ),
            movable_treasures=(
                "bat", "ghost", "dragon", "genie", "sorceress", "troll",
                "owl", "lizard", "spider", "moth", "beetle", "rat",
            ),
        ),
        Edition(
            name="harry-potter",
            plain_straights=13,
            plain_corners=9,
            start_colors=_DEFAULT_STARTS,
            fixed_treasures=(
                "sorting hat", "golden snitch", "marauder's map", "elder wand", "time-turner", "invisibility cloak",
                "philosopher's stone", "goblet of fire", "horcrux locket", "sword of gryffindor", "hogwarts letter",
                "remembrall",
            ),
            movable_treasures=(
                "hedwig", "dobby", "fawkes", "buckbeak", "nagini", "aragog",
                "crookshanks", "scabbers", "fluffy", "norbert", "trevor", "nearly headless nick",
            ),
        ),
        Edition(
            name="pokemon",
            plain_straights=13,
            plain_corners=9,
            start_colors=_DEFAULT_STARTS,
            fixed_treasures=(
                "pikachu", "charmander", "bulbasaur", "squirtle", "eevee", "jigglypuff",
                "meowth", "psyduck", "snorlax", "gengar", "mewtwo", "dragonite",
            ),
            movable_treasures=(
                "pidgey", "zubat", "oddish", "caterpie", "magikarp", "geodude",
                "abra", "machop", "ponyta", "slowpoke", "magnemite", "onix",
            ),
        ),
    )
}  # fmt: skip
