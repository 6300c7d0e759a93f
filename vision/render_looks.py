"""Artwork looks for the synthetic renderer: one palette family per edition style.

A *look* is a family (classic ochre stone, dark walls, green hedges, a bright
cartoon edition, a wizard castle, a glow-in-the-dark edition); :func:`make_style`
draws one concrete :class:`Style` from it, jittering every colour and shape
parameter, so two scenes of the same look are never pixel-identical in
palette. Readers must learn corridor vs wall per frame, never from these
colours: the glow look even has walls lighter than corridors on purpose.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass, replace

import numpy as np

BGR = tuple[float, float, float]


@dataclass(frozen=True)
class Style:
    """One scene's concrete artwork parameters (colours are BGR 0..255)."""

    look: str
    wall: BGR
    wall_accent: BGR
    wall_texture: str  # stones | rock | hedge | bricks | grass | paint
    corridor: BGR
    corridor_accent: BGR
    corridor_texture: str  # smooth | gravel | planks | sand | flagstones
    corridor_width: float  # fraction of the tile side
    rounded: bool  # corridor inner corners rounded (cartoon art)
    outline: BGR | None  # line drawn where corridor meets wall
    outline_width: float  # fraction of the tile side
    wall_shade: float  # how much walls shade the corridor next to them (printed relief)
    frame: BGR
    frame_accent: BGR  # gate arrows and frame trim
    seam: BGR  # the board base visible between tiles
    table: BGR
    table_accent: BGR
    table_texture: str  # wood | cloth | laminate
    plaque: BGR | None  # disc behind treasure pictures (None: drawn straight on the corridor)
    picture_scale: float  # picture diameter as a fraction of the tile side
    glow_walls: float  # glow-in-the-dark paint strength on walls (night emission), 0..1
    glow_pictures: float
    start_rings: bool  # coloured rings on the four start squares
    relief: float = 0.0  # walls drawn as raised blocks: how dark their south face is (0: flat art)


_BASE: dict[str, Style] = {
    "classic": Style(
        look="classic", wall=(70, 150, 205), wall_accent=(50, 115, 170), wall_texture="stones",
        corridor=(222, 236, 242), corridor_accent=(200, 218, 228), corridor_texture="smooth",
        corridor_width=0.40, rounded=False, outline=(40, 80, 120), outline_width=0.012, wall_shade=0.18,
        frame=(150, 80, 25), frame_accent=(230, 230, 235), seam=(30, 40, 55),
        table=(95, 140, 180), table_accent=(70, 110, 150), table_texture="wood",
        plaque=(215, 230, 240), picture_scale=0.36, glow_walls=0.5, glow_pictures=0.6, start_rings=True, relief=0.35,
    ),
    "dark": Style(
        look="dark", wall=(48, 48, 55), wall_accent=(30, 32, 36), wall_texture="rock",
        corridor=(165, 178, 186), corridor_accent=(140, 150, 160), corridor_texture="flagstones",
        corridor_width=0.36, rounded=False, outline=None, outline_width=0.0, wall_shade=0.30,
        frame=(35, 35, 38), frame_accent=(60, 150, 200), seam=(15, 15, 18),
        table=(200, 200, 195), table_accent=(175, 178, 175), table_texture="laminate",
        plaque=None, picture_scale=0.34, glow_walls=0.6, glow_pictures=0.7, start_rings=False,
    ),
    "hedge": Style(
        look="hedge", wall=(45, 125, 55), wall_accent=(25, 85, 30), wall_texture="hedge",
        corridor=(140, 180, 205), corridor_accent=(110, 150, 175), corridor_texture="gravel",
        corridor_width=0.42, rounded=True, outline=None, outline_width=0.0, wall_shade=0.35,
        frame=(40, 70, 100), frame_accent=(60, 170, 220), seam=(20, 35, 40),
        table=(60, 90, 130), table_accent=(40, 65, 100), table_texture="wood",
        plaque=(205, 225, 235), picture_scale=0.34, glow_walls=0.5, glow_pictures=0.6, start_rings=False, relief=0.3,
    ),
    "bright": Style(
        look="bright", wall=(80, 205, 95), wall_accent=(60, 170, 230), wall_texture="grass",
        corridor=(160, 225, 250), corridor_accent=(130, 205, 240), corridor_texture="sand",
        corridor_width=0.44, rounded=True, outline=(30, 40, 60), outline_width=0.03, wall_shade=0.10,
        frame=(40, 40, 215), frame_accent=(30, 210, 250), seam=(60, 40, 40),
        table=(215, 215, 220), table_accent=(190, 195, 200), table_texture="cloth",
        plaque=(250, 250, 250), picture_scale=0.42, glow_walls=0.6, glow_pictures=0.8, start_rings=True,
    ),
    "wizard": Style(
        look="wizard", wall=(95, 78, 68), wall_accent=(60, 50, 45), wall_texture="bricks",
        corridor=(120, 165, 205), corridor_accent=(85, 125, 165), corridor_texture="planks",
        corridor_width=0.38, rounded=False, outline=(40, 120, 170), outline_width=0.015, wall_shade=0.25,
        frame=(40, 30, 115), frame_accent=(60, 180, 220), seam=(20, 15, 25),
        table=(50, 70, 95), table_accent=(35, 50, 70), table_texture="wood",
        plaque=(170, 205, 225), picture_scale=0.36, glow_walls=0.5, glow_pictures=0.7, start_rings=False, relief=0.4,
    ),
    "glow": Style(
        look="glow", wall=(185, 228, 200), wall_accent=(160, 205, 180), wall_texture="paint",
        corridor=(95, 55, 35), corridor_accent=(120, 75, 50), corridor_texture="smooth",
        corridor_width=0.40, rounded=True, outline=(230, 250, 235), outline_width=0.01, wall_shade=0.15,
        frame=(80, 35, 30), frame_accent=(190, 235, 205), seam=(25, 15, 10),
        table=(140, 150, 160), table_accent=(115, 125, 135), table_texture="laminate",
        plaque=(200, 240, 215), picture_scale=0.38, glow_walls=1.0, glow_pictures=1.0, start_rings=True,
    ),
}  # fmt: skip

#: Names of the artwork looks, for ``render_photo(look=...)`` and the CLI.
LOOKS: tuple[str, ...] = tuple(_BASE)

_WALL_TEXTURES = ("stones", "rock", "hedge", "bricks", "grass", "paint")
_CORRIDOR_TEXTURES = ("smooth", "gravel", "planks", "sand", "flagstones")
_TABLES = ("wood", "cloth", "laminate")


def jitter_color(rng: np.random.Generator, color: BGR, hue: float = 0.03, sat: float = 0.2, val: float = 0.15) -> BGR:
    """A nearby colour: hue shifted by up to ``hue`` turns, saturation and value scaled."""
    b, g, r = (min(max(c / 255.0, 0.0), 1.0) for c in color)
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    h = (h + rng.uniform(-hue, hue)) % 1.0
    s = min(max(s * rng.uniform(1 - sat, 1 + sat), 0.0), 1.0)
    v = min(max(v * rng.uniform(1 - val, 1 + val), 0.0), 1.0)
    r, g, b = colorsys.hsv_to_rgb(h, s, v)
    return (b * 255.0, g * 255.0, r * 255.0)


def make_style(look: str, rng: np.random.Generator) -> Style:
    """A random variation of ``look``: palette jitter, corridor width, textures, outline.

    The variation is wide enough that tests cover more than one palette per look,
    yet each look keeps its character (ochre and white, hedges, dark walls...).
    """
    try:
        base = _BASE[look]
    except KeyError:
        raise ValueError(f"unknown look {look!r}; choose one of {', '.join(LOOKS)}") from None
    j = lambda c, **kw: jitter_color(rng, c, **kw)  # noqa: E731
    wall_texture = base.wall_texture if rng.random() < 0.8 else str(rng.choice(_WALL_TEXTURES))
    corridor_texture = base.corridor_texture if rng.random() < 0.8 else str(rng.choice(_CORRIDOR_TEXTURES))
    outline = base.outline
    if outline is not None and rng.random() < 0.2:
        outline = None
    table = jitter_color(rng, base.table, hue=0.08, sat=0.4, val=0.3)
    table_texture = base.table_texture if rng.random() < 0.6 else str(rng.choice(_TABLES))
    return replace(
        base,
        wall=j(base.wall),
        wall_accent=j(base.wall_accent),
        wall_texture=wall_texture,
        corridor=j(base.corridor, sat=0.3, val=0.08),
        corridor_accent=j(base.corridor_accent, sat=0.3, val=0.1),
        corridor_texture=corridor_texture,
        # now and then wide paths with thin walls, as some editions draw them
        corridor_width=float(rng.uniform(0.5, 0.6)) if rng.random() < 0.12
        else float(np.clip(base.corridor_width * rng.uniform(0.85, 1.12), 0.28, 0.5)),
        rounded=base.rounded if rng.random() < 0.8 else not base.rounded,
        outline=None if outline is None else j(outline, val=0.2),
        outline_width=base.outline_width * rng.uniform(0.7, 1.4),
        wall_shade=base.wall_shade * rng.uniform(0.5, 1.4),
        frame=j(base.frame, hue=0.04, sat=0.25, val=0.2),
        frame_accent=j(base.frame_accent),
        seam=j(base.seam, val=0.4),
        table=table,
        table_accent=jitter_color(rng, table, hue=0.02, sat=0.2, val=0.25),
        table_texture=table_texture,
        plaque=None if base.plaque is None or rng.random() < 0.15 else j(base.plaque, val=0.08),
        picture_scale=base.picture_scale * rng.uniform(0.88, 1.3),
        glow_walls=base.glow_walls * rng.uniform(0.7, 1.2),
        glow_pictures=base.glow_pictures * rng.uniform(0.7, 1.2),
        start_rings=base.start_rings if rng.random() < 0.8 else not base.start_rings,
        relief=(base.relief * rng.uniform(0.7, 1.3)) if rng.random() < 0.8 else rng.choice([0.0, 0.35]),
    )


def random_look(rng: np.random.Generator) -> str:
    return str(rng.choice(LOOKS))
