"""Flat things lying on the board: a card, a cup, a phone hide the tiles' structure.

Every half-tile cell of a real board holds a tile corner (always wall) and a
corner of the tile's centre (always corridor), so a wall/corridor boundary, and
along two sides the seams between separate tiles. A card, a phone or a cup lying
over the tiles replaces all that with one smooth surface (a print, a rim or a
glossy gradient at most): its cells lose nearly all of their gradient. The
strength is the mean gradient of log grey level per cell relative to the board's
median cell, so a shadow (light scaled) keeps it and the camera's blur and
exposure cancel out.

A lamp's glare also flattens cells (light added), but the tiles under it still
read and their corners keep the wall's colour; an object makes the tiles under
it unclear or brings a colour of its own to their corners. So a group of flat
cells counts only when it lies on an unclear tile or a foreign tile corner
(:func:`vision.occlusion_lattice.lattice_foreign`). Blown-out cells with the
cells around them (the glare's halo) and the squares pawns stand on are left out,
except a blown-out flat group with an outline: a white card or a pale hand in bright
light clips like glare, but light added has no edge (:func:`_blown_surface`).

At night the camera's gain is high: in a dark object (a cup over the glowing walls)
the sensor's noise alone makes a gradient as strong as the tiles' structure, so the
log grey is smoothed first (``night_flat_blur``, 1.5 px of the 48 px tile: the noise
goes, the tiles' edges stay).

A tinted glare can make a tile corner foreign (its colour pulled off the walls', not
toward white), which would make its flat group a surface. So a lit foreign corner
(:func:`vision.occlusion._lit_points`: much brighter than the board's median corner,
its seams kept as a pool multiplying the tiles' light grows them) is excused only on a
group whose tiles all still read (none unclear): glare leaves the tiles readable, a
hand or a card over them rarely does. Seams are counted on the share of a corner's
patch that can show them (:func:`_shown_seams`): clipped pixels show none; and a white
haze, a veil that lets only part of the tiles' contrast through, has them counted on that
part (:func:`veil_transmission`). A glare's halo over a dark wall cell lifts it over the
cells of its own kind, not always over the board's median cell: with the tiles' read
openings each cell around a group is also judged against its kind (:func:`_own_lift`).
Looser bounds and wider excuses were measured and lost hands; a glare cut by the board's
edge whose halo fades nowhere is still flagged.

Measurements and tried alternatives: vision/notes/occlusion_flat.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache, partial

import cv2
import numpy as np

from companion.board import SIZE, Square
from vision.occlusion_lattice import (
    _LINEAR_GREY,
    _LOG_GREY,
    _patch_bounds,
    lattice_structure,
    least_clipped_seams,
    light_seams,
    seam_share,
    white_share,
)
from vision.rectify import Rectified

#: Cells per tile side: half tiles, each holding one tile corner and one corner of the centre.
CELLS = 2
#: Cells beside a blown-out flat group that must keep the board's median structure (an outline) for a surface.
OUTLINE_CELLS = 2
#: The least share of the tiles' contrast a veil is taken to let through (:func:`veil_transmission`): under a
#: denser veil what is left of the seams is the camera's noise and compression, which dividing would inflate.
VEIL_LEAST = 0.25
#: The least linear-light structure (median of a flat group's cells, relative to the board's median cell, see
#: :func:`_linear_strength`) taken for light added: over such a group a lit tile corner is excused even on an
#: unclear tile (measured: clean glare groups on a mark 0.75-1.09, hands' and objects' 0.00-0.54 but for groups
#: beside them; vision/notes/occlusion_flat.md, o46).
LINEAR_KEEP = 0.7


def _tile_area(rect: Rectified, rim: int = 0) -> np.ndarray:
    """The rectified tile area (whole cells), with ``rim`` pixels more all round."""
    m, side = rect.margin_px, SIZE * CELLS * (rect.tile_px // CELLS)
    return rect.image[m - rim : m + side + rim, m - rim : m + side + rim]


def _relative_strength(rect: Rectified, smooth: float = 0.0) -> np.ndarray:
    """14x14 mean gradient of log grey per cell over the board's median cell (box means by area resize).

    ``smooth``: Gaussian sigma (rectified pixels) applied to the log grey first, or 0.
    """
    return _cell_gradients(cv2.LUT(cv2.cvtColor(_tile_area(rect, 1), cv2.COLOR_BGR2GRAY), _LOG_GREY), smooth)


def _linear_strength(rect: Rectified, smooth: float = 0.0) -> np.ndarray:
    """14x14 mean gradient of linear grey per cell over the board's median cell (:func:`_relative_strength` in
    linear light): light added keeps it, a surface loses it."""
    lin = _LINEAR_GREY[cv2.cvtColor(_tile_area(rect, 1), cv2.COLOR_BGR2GRAY)].astype(np.float32)
    return _cell_gradients(lin, smooth)


def _cell_gradients(levels: np.ndarray, smooth: float) -> np.ndarray:
    """14x14 mean gradient magnitude of ``levels`` (the tile area with a one-pixel rim, float32) per half-tile
    cell, over the median cell; ``smooth`` is a Gaussian sigma applied first, or 0."""
    if smooth > 0:
        levels = cv2.GaussianBlur(levels, (0, 0), smooth)
    grad = cv2.absdiff(cv2.Sobel(levels, cv2.CV_32F, 1, 0, ksize=3), 0.0)
    grad += cv2.absdiff(cv2.Sobel(levels, cv2.CV_32F, 0, 1, ksize=3), 0.0)
    k = SIZE * CELLS
    strength = cv2.resize(grad[1:-1, 1:-1], (k, k), interpolation=cv2.INTER_AREA)
    return strength / max(float(np.median(strength)), 1e-6)


def _glare_cells(rect: Rectified, clip_level: float) -> np.ndarray:
    """14x14 booleans: cells over half blown out (brightest channel >= ``clip_level``) and their neighbours.

    A lamp's glare clips its core and its halo around it adds so much light that the
    cells there lose most of their gradient (a clean third-renderer board made 5 such
    cells beside its glare, on two unclear tiles), so the neighbours are left out too.
    """
    area = _tile_area(rect)
    blue, green, red = cv2.split(area)
    clipped = (cv2.max(cv2.max(blue, green), red) >= clip_level).astype(np.float32)
    k = SIZE * CELLS
    share = cv2.resize(clipped, (k, k), interpolation=cv2.INTER_AREA)
    return cv2.dilate((share > 0.5).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0


def flat_groups(
    rect: Rectified,
    unclear: set[Square],
    foreign: np.ndarray,
    covered: Iterable[Square] = (),
    flat_level: float = 0.3,
    clip_level: float = 252.0,
    smooth: float = 0.0,
    seamless: Callable[[], np.ndarray] | None = None,
    seam_keep: float = 0.9,
    seam_lost: float = 0.5,
    seam_edge: float = 3.0,
    lit_points: Callable[[], np.ndarray] | None = None,
    openings: np.ndarray | None = None,
) -> tuple[int, int]:
    """Largest 4-connected group of flat half-tile cells lying on an unclear tile or a foreign tile corner.

    ``foreign``: 8x8 lattice points (:func:`vision.occlusion_lattice.lattice_foreign`);
    cells of ``covered`` squares (pawns) never count. Only measured when the board
    shows something (an unclear tile or a foreign point): 0 otherwise. ``smooth``: see
    :func:`_relative_strength` (at night: the sensor's noise, see the module docstring).
    ``seamless``: called at most once, only when a flat group lies on neither, it gives the 8x8 lattice
    points whose tiles' seams are gone (see :func:`vision.occlusion.signals`): such a point marks a group
    like a foreign one, and with it the cells are measured even on a board with nothing else to show. A
    seamless point that keeps ``seam_keep`` of the board's median seams in linear light (:func:`light_seams`)
    marks nothing: light added flattens the log grey those points were judged on, a surface hides both
    (spent final9 si_day 0004, a clean sixth-renderer board: a glare's seamless corner kept 0.94-1.5).

    ``lit_points``: called at most once, only when a group lies on a foreign point, it gives the 8x8 points
    lit as light does (:func:`vision.occlusion._lit_points`); on a group none of whose tiles is ``unclear``
    such points are not "a colour of their own" (a tinted lamp's glare or pool; see the module docstring).

    A group is a lamp's glare, not a surface, when no tile corner on its tiles is foreign, it fades
    out (:func:`_fading`) and its tile corners keep their seams in linear light (their median at least
    ``seam_keep`` of the board's median point, none under ``seam_lost``: :func:`_keeps_seams`), each corner's
    over the share of the contrast a haze over it lets through (:func:`veil_transmission`; so does the
    seamless point's test above).

    ``openings``: the tiles' read openings (7x7 masks, N=1 E=2 S=4 W=8): a cell beside a group counts as lit by
    the glare when it is brighter than the cells of its own kind (:func:`_own_lift`), not only than the board's
    median cell (:func:`_fading`).

    A blown-out flat group (glare cells included) with an outline counts on its own, wherever it lies
    (:func:`_blown_surface`: a white card or a pale hand in bright light).

    Second: the largest group of flat cells darker (mean grey) than the board's darkest tenth of cells,
    wherever it lies (:func:`_darker`). Both 0 when nothing is measured.
    """
    if not unclear and not foreign.any() and seamless is None:
        return 0, 0
    rel = _relative_strength(rect, smooth)
    pawns = np.zeros(rel.shape, dtype=bool)
    for r, c in covered:
        pawns[r * CELLS : (r + 1) * CELLS, c * CELLS : (c + 1) * CELLS] = True
    rel[pawns] = np.inf
    if not (rel < flat_level).any():  # the common case on a clean board: no need to look for glare
        return 0, 0
    strength = rel.copy()
    glare = _glare_cells(rect, clip_level)
    grey = _cell_grey(rect)
    # Measured once, only if a group is judged.
    linear = cache(partial(_linear_strength, rect, smooth))
    lift = cache(lambda: None if openings is None else _own_lift(grey, openings, pawns))
    best = 0
    lit = cache(partial(light_seams, rect))  # measured once, only if a group needs it
    veil = cache(partial(veil_transmission, rect))
    shown = cache(lambda: _shown_seams(rect, lit, clip_level) / veil())  # what a haze let through counts whole
    if glare.any():
        kept = partial(_glare_kept, rect, foreign, clip_level, seam_edge, lit)
        best = _blown_surface(rel < flat_level, glare, strength, pawns, kept)
    rel[glare] = np.inf
    count, labels = cv2.connectedComponents((rel < flat_level).astype(np.uint8), connectivity=4)
    dark = _darker(grey, labels, count)
    marks, bare, own = foreign, None, None
    for i in range(1, count):
        group = labels == i
        cells = np.argwhere(group)
        if len(cells) <= best:
            continue
        squares = {(int(a) // CELLS, int(b) // CELLS) for a, b in cells}
        if not _lies_on(squares, unclear, marks) and seamless is not None and bare is None:
            # A seamless point lost its seams in log grey; one that keeps them in linear light (a haze's share of
            # them) is lit, not hidden.
            bare = seamless() & (lit() < seam_keep * veil())
            marks = foreign | bare
        if not _lies_on(squares, unclear, marks):
            continue
        # Glare changes no tile corner's colour (nothing foreign on it), fades out (no outline) and keeps
        # the tiles' seams in linear light (light added): all three, or the group is a surface.
        if own is None:
            own = foreign if lit_points is None or not _lies_on(squares, set(), foreign) else foreign & ~lit_points()
        read = not squares & unclear  # a lit corner is excused only where the tiles still read
        # ... or where the flat cells keep the tiles' structure in linear light (light added keeps it).
        read = read or float(np.median(linear()[group])) >= LINEAR_KEEP
        coloured = _lies_on(squares, set(), own if read else foreign)
        if coloured or not _fading(group, strength, grey, glare, pawns, lift()):
            best = len(cells)
            continue
        if not _keeps_seams(cells, shown(), seam_keep, seam_lost):
            best = len(cells)
    return best, dark


def _blown_surface(
    flat: np.ndarray,
    glare: np.ndarray,
    strength: np.ndarray,
    pawns: np.ndarray,
    kept: Callable[[np.ndarray], bool] | None = None,
) -> int:
    """Size of the largest group of flat cells (14x14 booleans, glare cells included) reaching into a blown-out
    area (``glare``, :func:`_glare_cells`) with an outline: at least ``OUTLINE_CELLS`` cells around it (pawns'
    cells left out) with ``strength`` (relative to the board's median cell) of 1 or more, unless ``kept`` (given
    the group's cells, :func:`_glare_kept`) says its tile corners keep the tiles' seams as light added does.

    A white card in bright light clips like a lamp's glare, so its flat cells would fall
    in the glare cells left out. Light added has no edge: around a glare's flat core every
    cell is washed out part of the way, under the board's median structure. A card or a
    pale hand has a sharp edge, with the tiles' full structure or the object's own outline
    just beyond it, on several sides. Measurements: vision/notes/occlusion_flat.md.
    """
    count, labels = cv2.connectedComponents(flat.astype(np.uint8), connectivity=4)
    structured = strength >= 1.0
    best = 0
    for i in range(1, count):
        group = labels == i
        if not (group & glare).any() or int(group.sum()) <= best:
            continue
        ring = _ring(group, pawns)
        if int((structured & ring).sum()) >= OUTLINE_CELLS and (kept is None or not kept(np.argwhere(group))):
            best = int(group.sum())
    return best


def _glare_kept(
    rect: Rectified,
    foreign: np.ndarray,
    clip_level: float,
    edge: float,
    lit: Callable[[], np.ndarray],
    cells: np.ndarray,
) -> bool:
    """Do the tile corners of a blown-out flat group (``cells``: 14x14 indices) read as a coloured glare's, not a
    surface's: none foreign (:func:`vision.occlusion_lattice.lattice_foreign`), none white clipped
    (:func:`vision.occlusion_lattice.white_share` over half), and their seams kept in linear light as light
    added keeps them (:func:`_keeps_seams`: the blown-out ones, over half clipped in their brightest channel,
    held to the lower bound as a group; none over ``edge`` of the board's median point)?

    The outline test alone (:func:`_blown_surface`) takes a small strong glare that falls off
    within a cell for a card; under a glare the seams stay visible, while a card has an outline
    of its own (over ``lit_edge``, as in :func:`vision.occlusion._lit_tiles`) and a white card in
    bright light is white clipped, flat in every channel (a glare as white stays a surface too:
    nothing is left to tell them apart). ``lit`` gives the frame's
    :func:`vision.occlusion_lattice.light_seams` (measured once).

    The blown-out corners are measured in their least clipped channel
    (:func:`vision.occlusion_lattice.least_clipped_seams`), the rim bound on grey: light added keeps
    the seams in every channel it leaves unclipped. Measurements: vision/notes/occlusion_flat.md.
    """
    if _lies_on({(int(a) // CELLS, int(b) // CELLS) for a, b in cells}, set(), foreign):
        return False
    points = tuple(np.array(sorted({((int(a) + 1) // CELLS, (int(b) + 1) // CELLS) for a, b in cells})).T)
    if (white_share(rect, clip_level=clip_level)[points] > 0.5).any():
        return False
    blown = lattice_structure(rect, clip_level=clip_level)[1] > 0.5
    grey = lit()
    seams = np.where(blown, least_clipped_seams(rect, clip_level=clip_level), grey) if blown[points].any() else grey
    return _keeps_seams(cells, seams, blown=blown, edge=edge, edges=grey)


def _ring(group: np.ndarray, pawns: np.ndarray) -> np.ndarray:
    """The cells 4-adjacent to a group of cells (14x14 booleans), pawns' cells left out."""
    cross = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=np.uint8)
    return cv2.dilate(group.astype(np.uint8), cross).astype(bool) & ~group & ~pawns


def _keeps_seams(
    cells: np.ndarray,
    seams: np.ndarray,
    keep: float = 0.9,
    lost: float = 0.5,
    blown: np.ndarray | None = None,
    edge: float = np.inf,
    edges: np.ndarray | None = None,
) -> bool:
    """Do the tile corners of a group of flat cells (``cells``: their 14x14 indices) keep their seams in linear
    light as light added does (``seams``: 8x8, :func:`vision.occlusion_lattice.light_seams`): their median at
    least ``keep`` of the board's median point and none under ``lost``? ``blown`` (8x8, over half clipped): such
    points are held to ``lost`` as a group (their median), not each (light took some of their seams, see
    :func:`_glare_kept`): a channel left unclipped still shows the seams, a white card blown out shows none.
    None over ``edge`` either (given for blown-out groups): light added has no edge of its own. ``edges``
    (8x8, default ``seams``): where that upper bound is read, when ``seams`` holds another measure (a
    channel's own, :func:`_glare_kept`: relative to a dim channel's median a glare's seams can pass 3).

    Each half-tile cell holds one tile corner. A lamp's glare adds light: the log grey of the
    tiles under it goes flat, while in linear light the tiles' edges and the gaps between them
    are as strong as anywhere (spent fo_day 0034: 1.6-2.0x the board's median point). An opaque
    surface hides them, even a defocused pale hand without a colour of its own or a sharp outline
    (spent tr_occ 0016: 0.72 and 0.87 at two of its corners).

    The group as a whole, not each corner: a clean board's own points spread around its median,
    so under a glare over several corners one may fall under ``keep`` by the print alone. A surface
    hides them (the group's median falls), and a corner under ``lost`` (the same veto as
    :func:`vision.occlusion_lattice._lit_seams`) marks a card whose rim keeps the median up.
    Measurements: vision/notes/occlusion_flat.md.
    """
    points = {((int(a) + 1) // CELLS, (int(b) + 1) // CELLS) for a, b in cells}
    values = np.array([seams[p] for p in points])
    clipped = np.array([blown is not None and bool(blown[p]) for p in points])
    if clipped.any() and float(np.median(values[clipped])) < lost:
        return False  # blown out in every channel: as flat in linear light as a white surface
    rims = values if edges is None else np.array([edges[p] for p in points])
    held = bool((values[~clipped] >= lost).all()) and float(rims.max()) <= edge
    return float(np.median(values)) >= keep and held


def _shown_seams(rect: Rectified, lit: Callable[[], np.ndarray], clip_level: float) -> np.ndarray:
    """8x8 :func:`light_seams` (``lit``) per share of each point's patch that can show seams: its unclipped share
    (brightest channel under ``clip_level``), at least half, as :func:`vision.occlusion_lattice._kept_seams` counts it.

    Clipped pixels show no seam whatever lies there, so a partly clipped corner of a glare would
    fall under ``seam_keep`` on its whole patch. Measurements: vision/notes/occlusion_flat.md.
    Over half clipped counts as half: a patch that blown out is the blown-out rules' to judge.
    """
    clipped = lattice_structure(rect, clip_level=clip_level)[1]
    return lit() / seam_share(clipped)


def _cell_grey(rect: Rectified) -> np.ndarray:
    """14x14 mean grey level per half-tile cell."""
    grey = cv2.cvtColor(_tile_area(rect), cv2.COLOR_BGR2GRAY).astype(np.float32)
    k = SIZE * CELLS
    return cv2.resize(grey, (k, k), interpolation=cv2.INTER_AREA)


def _fading(
    group: np.ndarray,
    strength: np.ndarray,
    grey: np.ndarray,
    glare: np.ndarray,
    pawns: np.ndarray,
    lift: np.ndarray | None = None,
) -> bool:
    """Is this group of flat cells (14x14 booleans) the core of a lamp's glare fading out, not an object?

    Glare is light added over part of the board: brighter than the board's median cell, and
    it fades. Every cell around its flat core is itself washed out part of the way: brighter
    than the board's median cell and with less structure than it (``strength``, relative to
    the median cell), or in a blown-out glare's halo (``glare``). A card, a cup, a phone or a
    hand has an outline: beside it lies a cell with its own edge or the tiles' full structure,
    or a cell in the board's own light. Cells where a pawn stands (``pawns``) say nothing.
    Judged only for a group with no foreign tile corner on its tiles (glare pulls the walls'
    colour toward white at most; the pale hands whose flat cells looked like this, 3 of 348
    groups, brought a colour of their own to a corner there). The twin of
    :func:`vision.occlusion_lattice._veil_cores` for flat cells.

    ``lift`` (14x14, :func:`_own_lift`): a cell brighter than the cells of its own kind counts as lit too. A
    glare's halo reaches wall cells far from its core, lifted over their kind yet under the board's median
    where the corridors are pale: on a clean sixth-renderer board (dev si2 0068, seed 9310068) a white pool
    cut by the board's edge left one such wall cell beside its 5 flat cells, 0.94 of the median cell.
    Measurements: vision/notes/occlusion_flat.md.
    """
    level = float(np.median(grey))
    if float(grey[group].mean()) <= level:
        return False
    ring = _ring(group, pawns)
    brighter = grey > level if lift is None else (grey > level) | (lift > 1.0)
    washed = glare | ((strength < 1.0) & brighter)
    return bool(ring.any()) and bool(washed[ring].all())


def _own_lift(grey: np.ndarray, openings: np.ndarray, pawns: np.ndarray) -> np.ndarray:
    """14x14 mean grey of each half-tile cell over the median cell of its kind (pawns' cells left out of it).

    A cell's kind is which of the two tile sides it lies along are open (from ``openings``, the tiles' read
    masks, N=1 E=2 S=4 W=8): a cell along two walls is mostly wall, one along two arms mostly corridor, so
    cells of one kind share one level in the board's own light. The board's median cell alone says nothing of
    a dark wall cell that a glare's halo lifted, the pale corridors holding the median over it.
    """
    masks = np.repeat(np.repeat(np.asarray(openings, dtype=np.int64), CELLS, axis=0), CELLS, axis=1)
    rows, cols = np.indices(masks.shape)
    along_row = np.where(rows % CELLS == 0, masks & 1, (masks >> 2) & 1)  # the N side's arm, or the S side's
    along_col = np.where(cols % CELLS == 0, (masks >> 3) & 1, (masks >> 1) & 1)  # the W side's arm, or the E side's
    kind = 2 * along_row + along_col
    lift = np.ones(grey.shape, dtype=np.float64)
    for k in range(4):
        members = kind == k
        counted = members & ~pawns
        if counted.any():
            lift[members] = grey[members] / max(float(np.median(grey[counted])), 1e-6)
    return lift


def _darker(cells: np.ndarray, labels: np.ndarray, count: int) -> int:
    """Size of the largest labelled group of cells whose mean grey (``cells``, :func:`_cell_grey`) is under the
    board's darkest tenth of cells.

    Every half tile holds a wall and a corridor corner, so a real board's cells are never
    flat; glare (light added) flattens cells but makes them brighter, and a shadow (light
    scaled) keeps their log-grey structure. A flat *dark* surface is something lying on the
    tiles: the coffee in a cup seen from above, a dark phone, a sleeve. Darker than the board's
    own darkest tenth of cells, not just its median: a low-contrast clean board's flat cell can
    be darker than its median, while a cup's coffee is far under its 10th percentile.
    Measurements: vision/notes/occlusion_flat.md.
    """
    if count <= 1:
        return 0
    level = float(np.percentile(cells, 10))
    sizes = [int((labels == i).sum()) for i in range(1, count) if float(cells[labels == i].mean()) < level]
    return max(sizes, default=0)


def _lies_on(squares: set[Square], unclear: set[Square], marks: np.ndarray) -> bool:
    """Does one of ``squares`` hold an unclear tile or a marked lattice point (8x8) at one of its corners?"""
    return any(sq in unclear or marks[sq[0] : sq[0] + 2, sq[1] : sq[1] + 2].any() for sq in squares)


def veil_transmission(rect: Rectified, reach: float = 0.15) -> np.ndarray:
    """8x8 share of the tiles' linear-light contrast a veil of light lets through at each lattice point (1: none
    lies there), at least ``VEIL_LEAST``.

    A haze is a veil toward white, I' = (1 - a) I + a W: it adds light and scales every linear-light difference
    (the seams) by (1 - a), where light added alone (:func:`vision.occlusion_lattice.light_seams`) keeps them. It
    lifts the patch's dark floor (its 10th percentile of linear grey) over the board's (the median point's) by
    a (W - floor): a = (floor - board's) / (255 - board's). A pale surface lifts the floor as much but hides the
    seams: divided by (1 - a) they stay far under the board's. Measurements: vision/notes/occlusion_flat.md.

    The floor is the patch's 10th percentile; a side's point (not a corner) takes its 5th: its patch is the
    tile area's inner half only and one seam crosses it, so the seam is half the share of its pixels it is
    of a middle point's, and the 10th percentile fell on the seam's soft edge, a pixel's rendering apart
    from the tiles' light (clean boards read 0.7-0.8 there).
    """
    t, m = rect.tile_px, rect.margin_px
    light = _LINEAR_GREY[cv2.cvtColor(rect.image[m : m + SIZE * t, m : m + SIZE * t], cv2.COLOR_BGR2GRAY)]
    start, stop = _patch_bounds(t, reach)
    # Patches of one size and percentile reduced together.
    by_size: dict[tuple[int, int], list[tuple[int, int, np.ndarray]]] = {}
    for i in range(SIZE + 1):
        for j in range(SIZE + 1):
            patch = light[start[i] : stop[i], start[j] : stop[j]].ravel()
            side = (i in (0, SIZE)) != (j in (0, SIZE))  # on a side of the tile area, not at its corner
            by_size.setdefault((len(patch), 5 if side else 10), []).append((i, j, patch))
    floor = np.zeros((SIZE + 1, SIZE + 1))
    for (_, share), group in by_size.items():
        lows = np.percentile(np.stack([patch for _, _, patch in group]), share, axis=1)
        for (i, j, _), low in zip(group, lows, strict=True):
            floor[i, j] = low
    board = float(np.median(floor))
    veil = np.clip((floor - board) / max(255.0 - board, 1e-6), 0.0, 1.0)
    return np.maximum(1.0 - veil, VEIL_LEAST)
