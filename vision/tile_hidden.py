"""How much of each side a detected pawn hides: the share of its band boxes no pawn pixel covers.

The reader paints the pawns out (:func:`vision.pawns.erase`) and reads the tiles
again. Inpainting continues the board around a pawn inward, which restores a side
a short pawn barely touched; a tall pawn (a solid leaning away from the camera's
nadir, :mod:`vision.pawn_geometry`) covers whole arms, and there the paint is a
smear of wall and corridor. :func:`vision.tiles.read_tiles` lets each band's side
count as far as its box was seen, so the tile's valid shape rests on the sides the
camera saw (fifth renderer, true 3D, pawns 2.5-3.5 cm tall on 3 cm tiles: 18 wrong
tiles on 70 day frames -> 16; the four other renderers' dev sets tie or gain a tile).
Treating the covered pixels as missing instead (left out of the box means) changed
nothing, and sweeping the blobs toward the base (the shaded body under a lit top)
lost tiles: wider inpainting or wider masks cost more than the body they cover.

Dropping the paint's vote altogether where neither band box had a single pixel seen (the
shape then chosen on the seen sides and the inventory's prior; the line structure kept where
its wider box, 0.2-0.8 across, was seen) was measured and not kept: fifth renderer, spent day
sets 6 tiles fixed and 1 broken, fresh day frames (seeds 2860000, 2864000; 90) 0 fixed and
4 broken; every other set of the six renderers unchanged. On all dev and spent sets the 67
movable sides with no band pixel seen are open 50 % at log-odds -6..-3 and 75 % at +3..+6 (a
logistic slope of 0.1 on their log-odds), and the fresh frames say that little is still worth
more than nothing (scaling it by 0.1 or 0.001 instead: in between).

Which read to keep, the one before the paint-out or the one after (t16). The spent final9 day
misreads t15 put on pawns (located reads; open probability of the side in brackets): before
right in 2 of 6: fi 0034 3,0 under a pile of three (N, S, W: no band pixel seen) NE 0.59
before, ES 0.74 after (the paint opens S 0.14 -> 0.63); fo 0015 0,5 N (half its usual box
seen) NSW 0.87 before (N 0.97), SW 0.93 after (N 0.14). Neither in 4: si 0006 3,3 NS both
(W 0.14 / 0.04, 0.38 of it seen); fi 0011 1,4 and ho 0001 6,1 beside missed pawns (NE 0.77 /
0.96; NW 0.91 both, no pawn found near); th 0004 5,1 NE 0.99 both (W 0.01 both: the found red
pawn's body or shadow is read as wall before and after). Over 88 sets of all six renderers
(dev, lead f5, r6, spent final6-final9; day, night, occ), on tiles a found pawn touches, the
reads differ with one right on 95 tiles: after 85, before 10. Per side: untouched by pawn
pixels after 35 / before 10, partly seen 151 / 23, usual box unseen 69 / 37; the more
confident read is no guide (where before is surer: before 39, after 58). Decoded offline on
those tiles (88 sets / 160 fresh fifth and sixth frames, seeds 3210000-3213000): after 73 / 15
wrong, sides no pawn touches keeping the first read 85 / 14, the surer read per side 90 / 13,
the whole first read 151 / 26. Only where neither band box had a pixel seen is the paint no
better than the pawn: a coin flip. There the mixture of the two reads (mean probability: kept
where they agree, ~0.5 where they contradict) was built into the reader and measured: 6 tiles
fixed (final6 fi 0026 6,1, 0035 6,1; final7 fi_occ 0007 3,6; final7 si 0012 6,5; fresh fifth
0014 5,6 and 0031 4,5), 3 broken (final6 fo 0004 1,6, final7 fi 0001 0,3, fresh fifth seed
3213000 0009 3,0), three sets lose a tile: not kept (as dropping the vote, above, the gain is
within noise). Both reads wrong is the larger share (missed pawns: the pawn stage's).

Fifth and held-out day misreads (t17, located reads, open probability in brackets). Spent
final11 fifth (9): 7 under pawns or piles with the side blind, the paint deciding (0001 6,1,
0006 1,0, 0007 3,1, 0021 1,2, 0023 6,3, 0036 3,0, 0039 0,3); 1 the inventory's knock-on of 0021
1,2 (3,0 opened); 1 a diagonal neighbour's cast shadow over a seen side (0036 3,4 W 0.05:
:func:`vision.tiles.shaded_sides` reaches only facing sides). final11 held-out (5): 2 geometry
(0008 3,3, 0029 6,1: right at the label corners); 2 the paint closing an arm the first read saw
open (0011 2,1 W 0.77 -> 0.01, 0033 1,1 E 0.99 -> 0.01); 1 a found pawn's body outside its mask
read as corridor (0004 5,6 E 0.99). final10: fifth 2 under pawns, 2 a light wedge's edge
(0023); held-out 11 under broad shadows or warm light on the pale edition (0015, 0024, 0027,
0020), 1 paint (0001 1,3 E 0.99 -> 0.06), 1 a missed pawn (0032 4,3). final9 held-out 0014 and
0021 (read since grid_quality's fix): 9 weak under shadow or glare, 1 a pile. Fresh fifth frames
(seeds 3260000-3262039, 120): 13 of 18 blind under pawns or piles. The largest class is the blind
side (neither band box 0.1 seen). Read for the shape only (published edges kept): a closed-looking
blind side set to 0.5 (paint that fills an arm from its wall flanks): 26 sets (the day sets of
six renderers: dev, lead f5, r6, spent final9-final11; two night) 77 -> 74 wrong tiles, but
spent final10 fifth 4 -> 5 (0013 3,5: the order of two blind closed sides was right) and fresh
fifth 18 -> 19; scaled by the seen share instead 77 -> 76 / 18 -> 18; with a floor keeping the
order 77 -> 75 / 18 -> 18 (fresh 3262000 7 -> 8). These three changed only fifth-renderer tiles
(fresh sixth frames, seed 3263000: 5 -> 5); every blind side scaled by 0.01: 77 -> 77, four sets
of four renderers lose a tile. A blind side is a coin flip either way: not kept. The blind
sides of 16 day sets (fifth, sixth, held-out, third; 290, label of the truth): closed-looking
inside the board 51 closed / 67 open (57 % open, all inner sides 65 %: little beyond the base
rate), at the board's edge 62 / 5 (all edge sides 25 % open); open-looking 27 / 88 (beside a
neighbour's closed side 0 / 10: the paint there is the tile's own arm).

Day misreads by cause (t19; located reads, each looked at on the view rectified at the label's
corners): spent final9-final13 held-out, fifth and sixth day sets with dev ho_day, lead f5 and r6
day (18 sets, 82 wrong tiles; dev tr/th/fo day none). Held-out 43: 14 a light edge (a shadow
stripe, a lamp's glow) crossing a seen tile (final10 0015 4, 0024 3, 0027 3; final9 0001 2,5 and
3,5, 0021 3,5; final13 0019 3,4), 11 pawns (blind sides, the paint, final13 0028 5,1 under two 3D
pawns none found, final10 0032 4,3 missed, a body read as corridor), 7 weak under dim warm light on
the pale editions (final9 0014 5, final13 0024 4,1 and 5,3), 6 glare or coloured lamps, 4 geometry
(right at the label corners), 1 an exit at the board's red rim (final13 0037 0,3). Fifth 24: 19
pawns (15 blind under pawns or piles, 1 missed, 2 a body or its mask, 1 the inventory's knock-on), 4 a light
wedge's or a diagonal cast shadow's edge, 1 geometry. Sixth 15: 10 lamp glare or white haze, 3
pawns, 1 an object's shadow, 1 geometry. Two or more sides wrong (a corner read as a straight and
the like) on 30 of the 82: 13 pawns, 10 light edges (all the held-out renderer's stripes), 4 glare,
2 dim light, 1 geometry. Fresh frames (40 each of held-out, fifth, sixth; seeds 3335000, 3336000,
3337000; 17 wrong tiles): 8 pawns, 4 light edges (ho 0015 1,4 NS read NE and 0024 1,3 NSW read EW
under diagonal stripes, fi 0007 2,1 and 0029 4,5 a light wedge's edge), 3 geometry (ho 0038), 1
weak, 1 glare. The largest class stays the pawns' (blind sides, above; missed pawns: the pawn
stage's); the light edge, next, is tried in :mod:`vision.tile_features` (not kept).

Only frames with pawns pay for it: one integral image of the pawns' pixels (~0.2 ms).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from companion.board import SIZE
from vision.pawns import PawnDetection
from vision.rectify import Rectified
from vision.tile_features import TilesConfig, box_means, side_boxes


def pawn_pixels(shape: tuple[int, int], detections: Sequence[PawnDetection]) -> np.ndarray:
    """A (H, W) uint8 mask of the detections' blob pixels (1) in a view of ``shape``."""
    mask = np.zeros(shape, dtype=np.uint8)
    size_y, size_x = shape
    for d in detections:
        if d.pixels is None:
            continue
        x, y, w, h = d.box
        x0, y0, x1, y1 = max(0, x), max(0, y), min(size_x, x + w), min(size_y, y + h)
        if x1 > x0 and y1 > y0:
            mask[y0:y1, x0:x1] |= d.pixels[y0 - y : y1 - y, x0 - x : x1 - x].astype(np.uint8)
    return mask


def visible_shares(
    rect: Rectified, detections: Sequence[PawnDetection], cfg: TilesConfig
) -> tuple[np.ndarray, np.ndarray]:
    """Share (7, 7, 4) of each side's usual and border-band box (N, E, S, W) that no detection's pixels cover."""
    covered = pawn_pixels(rect.image.shape[:2], detections)
    integral = cv2.integral(covered, sdepth=cv2.CV_32S)[..., None]
    t, m = rect.tile_px, rect.margin_px
    origin = m + t * np.arange(SIZE)
    offs = np.zeros((SIZE, SIZE, 1, 4), dtype=np.int64)
    offs[..., 0] = offs[..., 2] = origin[None, :, None]
    offs[..., 1] = offs[..., 3] = origin[:, None, None]
    outer = replace(cfg, edge_lo=cfg.pawn_edge_lo, edge_hi=cfg.pawn_edge_hi)
    usual_share, outer_share = (
        1.0 - box_means(integral, offs + side_boxes(t, c)[None, None])[..., 0] for c in (cfg, outer)
    )
    return usual_share, outer_share
