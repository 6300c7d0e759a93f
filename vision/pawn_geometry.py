"""Where the camera stands over the board: the point a standing pawn leans away from.

A pawn is a raised object. Seen from a camera at height ``H`` above the board, a
point of the pawn at height ``h`` over its base ``b`` projects onto the board plane
at ``b + (b - n) * h / (H - h)``, where ``n`` is the camera's *nadir* (the board
point straight below it). In the rectified (board-plane) view every pawn is
therefore drawn out along the line from the nadir, its base at the end nearest
the nadir. The nadir is not where the camera looks (the image centre): a camera
tilted 30 degrees looks at the board's middle from a point beyond its near edge,
so between the two the directions are opposite, and "the end nearest the image
centre" is the pawn's top there, not its base.

The nadir follows from the board's homography alone when the camera is an
ordinary one (square pixels, principal point at the image centre): the focal
length is the one that makes the board's two axes perpendicular and equally
long in the camera frame (Zhang's constraints with a single unknown), and the
camera's position is then ``-R^T t``. Whatever the edition: only the board's
corners and the photo's size are used. A view straight down (or nearly) leaves
the focal length undetermined; the nadir then is the image centre, which is
where it is in such a view.

How far off the nadir may be (:func:`nadir_spread`): the corners' small error moves it by
tenths of a tile in an oblique view and by tiles in a steep one. A slender blob's lean is
measured within it (:func:`vision.pawn_features._within_cone`); every blob's was tried and
raised prints with the pawns (the note in :mod:`vision.pawn_features`); a refit with it helped no
renderer clearly (p30, the note in :mod:`vision.pawn_model`).

A pawn read on a neighbouring square is not the base's doing: in every such read measured the
blob chosen is another object of its colour on the neighbouring square (a printed token, artwork,
glare), the real pawn's base on its own square and scored lower, and the bases of pawns read right
lie well inside their squares, unbiased along the lean. So that class is print against pawn (the
pawn model's). Measurements: vision/notes/pawn_geometry.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

import cv2
import numpy as np

from vision.rectify import Rectified

#: A view whose implied focal length is this many image diagonals or more is taken as
#: straight down (the constraints are ill-conditioned; nadir = image centre).
MAX_FOCAL_DIAGONALS = 20.0


def camera_position(rect: Rectified) -> tuple[float, float, float] | None:
    """The camera's position in rectified pixels: (x, y) of its nadir and its height; None if undetermined.

    Needs ``rect.image_shape`` (the principal point is the photo's centre).
    """
    if rect.image_shape is None:
        return None
    height, width = rect.image_shape
    # Rectified pixels -> image pixels, the principal point moved to the origin.
    to_image = np.linalg.inv(rect.homography)
    shift = np.array([[1.0, 0.0, -width / 2.0], [0.0, 1.0, -height / 2.0], [0.0, 0.0, 1.0]])
    g = shift @ to_image
    g = g / np.linalg.norm(g[:, :2])
    h1, h2 = g[:, 0], g[:, 1]
    # Unknown a = 1 / f^2: r1 . r2 = 0 and |r1| = |r2| for K^-1 g, K = diag(f, f, 1).
    rows = np.array([h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    rhs = -np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    denom = float(rows @ rows)
    if denom <= 0.0:
        return None
    a = float(rows @ rhs) / denom
    if not math.isfinite(a) or a <= 0.0:
        return None
    focal = 1.0 / math.sqrt(a)
    if focal > MAX_FOCAL_DIAGONALS * math.hypot(width, height):
        return None
    m = np.diag([1.0 / focal, 1.0 / focal, 1.0]) @ g
    scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
    if t[2] < 0:  # the board in front of the camera
        r1, r2, t = -r1, -r2, -t
    rot = np.column_stack([r1, r2, np.cross(r1, r2)])
    centre = -rot.T @ t
    if not np.all(np.isfinite(centre)) or abs(float(centre[2])) < 1e-6:
        return None
    return float(centre[0]), float(centre[1]), abs(float(centre[2]))


def nadir(rect: Rectified, fallback: np.ndarray) -> np.ndarray:
    """The point pawns lean away from (rectified pixels): the camera's nadir, else ``fallback`` (the image centre)."""
    pose = camera_position(rect)
    if pose is None:
        return fallback
    return np.array(pose[:2], dtype=np.float64)


#: How far (tiles) the board's corners are typically off, in the rectified view (located
#: corners against the label's: ~1 px, 0.02 tile): the nadir's uncertainty is how far it
#: moves when the corners move this much (:func:`nadir_spread`).
CORNER_ERROR = 0.02

#: The nadir's uncertainty is capped at this many board widths (a view straight down: the
#: nadir is anywhere under the board, and every direction is within the cone).
MAX_SPREAD_BOARDS = 1.0

#: The least spread (tiles) of a view whose nadir is undetermined (:func:`nadir_spread`).
UNDETERMINED_SPREAD = 1.0

#: The last rectified view and its nadir's spread (one frame's blobs all ask).
_SPREAD_CACHE: list[tuple[Rectified, float]] = []


def nadir_spread(rect: Rectified) -> float:
    """How uncertain the nadir is (rectified pixels): how far it moves when the corners move by their error.

    The focal length (and with it the camera's height and nadir) comes from the board's
    perspective alone; in a steep view the perspective is slight and a corner's pixel of
    error moves the nadir by tiles (label vs located corners: a median 0.3-0.6 tile apart,
    90th percentile up to 4 tiles). Each corner in turn is moved by :data:`CORNER_ERROR`
    tile outward along the board's diagonal and the nadir found again; the spread is the
    root of the moves' summed squares (the four corners err at once; where a perturbed view
    has no nadir its distance from the image centre counts). A view with no nadir (straight
    down, or nearly) has at least :data:`UNDETERMINED_SPREAD` tiles: the image centre is a
    guess there (label vs located corners flip between it and a nadir a tile away). At most
    :data:`MAX_SPREAD_BOARDS` board widths. Computed once per rectified view (~0.2 ms).
    """
    if _SPREAD_CACHE and _SPREAD_CACHE[0][0] is rect:
        return _SPREAD_CACHE[0][1]
    value = _spread(rect)
    _SPREAD_CACHE[:] = [(rect, value)]
    return value


def _spread(rect: Rectified) -> float:
    """:func:`nadir_spread`, uncached."""
    cap = MAX_SPREAD_BOARDS * rect.size
    if rect.image_shape is None:
        return cap
    height, width = rect.image_shape
    centre_image = np.array([[[width / 2.0, height / 2.0]]], dtype=np.float64)
    centre = cv2.perspectiveTransform(centre_image, rect.homography)[0, 0]
    base = nadir(rect, centre)
    m = rect.margin_px
    far = rect.size - m
    square = np.array([[m, m], [far, m], [far, far], [m, far]], dtype=np.float32)
    step = CORNER_ERROR * rect.tile_px / math.sqrt(2.0)
    outward = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], dtype=np.float32) * step
    total = 0.0
    for k in range(4):
        moved = square.copy()
        moved[k] += outward[k]
        # The view whose corners (as seen) are off by one corner's error: rectified -> moved.
        shift = cv2.getPerspectiveTransform(square, moved).astype(np.float64)
        other = Rectified(rect.image, rect.tile_px, m, shift @ rect.homography, rect.corners, rect.image_shape)
        seen = nadir(other, cv2.perspectiveTransform(centre_image, other.homography)[0, 0])
        back = np.linalg.solve(shift, np.append(seen, 1.0))  # in this view's rectified pixels
        moved_nadir = back[:2] / back[2]
        total += float(np.sum((moved_nadir - base) ** 2))
    floor = UNDETERMINED_SPREAD * rect.tile_px if camera_position(rect) is None else 0.0
    return min(max(math.sqrt(total), floor), cap)


def lean_point(rect: Rectified, camera: Iterable[float] | None, from_nadir: bool = True) -> np.ndarray:
    """The point pawns lean away from (rectified pixels): the nadir, or with ``from_nadir`` off the camera point.

    ``camera`` is the image centre in rectified pixels (default, or if malformed: the board's centre).
    """
    cam = np.asarray(list(camera) if camera is not None else [rect.size / 2.0] * 2, dtype=np.float64)
    if cam.shape != (2,) or not np.all(np.isfinite(cam)):
        cam = np.array([rect.size / 2.0] * 2)
    return nadir(rect, cam) if from_nadir else cam


#: Blobs of two pawns this close (pixels) touch: one stands in front of the other.
TOUCH_GAP = 2
#: Blobs of two colours this close (pixels of the 48 px view, ~0.15 tile) are piled for the
#: board-level terms (:func:`vision.pawns._hidden_sizes`): the pawn behind shows a fragment
#: whose size and sides say nothing. Wider than :data:`TOUCH_GAP`: between two piled bodies'
#: blobs lie the front one's shaded side and rim, darker than the colour mask keeps (sixth
#: renderer 0031: a red token on top of a blue and a green pawn, 6 px from both blobs).
#: Measured (p32, vs main 39395f5): 7 px, 18 day sets of six renderers, located corners:
#: spent final9 si +1 pawn, the rest the same; label corners: r6 day +1, the rest the same; no
#: false report added anywhere, nights (dev ho, r6) still none; 5 px: final9 si +1 only.
PILE_GAP = 7

Blob = tuple[tuple[int, int, int, int], np.ndarray]
"""A blob as its box (x, y, w, h) and its pixels in that box (bool, h x w)."""


def reach(blob: Blob, point: np.ndarray) -> float:
    """How far the blob's centroid lies from ``point`` (the nadir): of two touching pawns the nearer stands in front."""
    (x, y, _, _), pixels = blob
    ys, xs = np.nonzero(pixels)
    return float(np.hypot(xs.mean() + x - point[0], ys.mean() + y - point[1]))


def _profile(blob: Blob, point: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """A blob's centroid, its unit direction away from ``point`` and its far end along it (95th percentile)."""
    (x, y, _, _), pixels = blob
    ys, xs = np.nonzero(pixels)
    coords = np.column_stack([xs + x, ys + y]).astype(np.float64)
    centroid = coords.mean(axis=0)
    d = centroid - point
    norm = float(np.hypot(*d))
    d = d / norm if norm > 1e-6 else np.array([1.0, 0.0])
    (hi,) = np.percentile((coords - centroid) @ d, (95,))
    return centroid, d, float(hi)


def hidden_bases(
    blobs: list[Blob], bases: list[tuple[float, float]], point: Callable[[], np.ndarray]
) -> list[tuple[float, float]]:
    """Each pawn's base, moved toward ``point`` (the nadir) where a pawn in front hides its foot.

    A pawn's base is its blob's end nearest the nadir (:func:`vision.pawn_features.features`).
    A pawn standing nearer the nadir is nearer the camera, and where the two blobs touch
    it hides the lower part of the one behind (a pile, or a tall pawn on the square in
    front): that blob's near end is the front pawn's outline, not its own foot, and its
    base lands too far out. Its far end - the top's projection - is still seen, and the
    four pawns are one set, so its foot lies as far behind its far end as the front
    pawn's does behind its own. The base only ever moves toward the nadir (the hidden
    side). ``bases`` are the bases as computed for each blob alone; ``point`` gives the
    nadir, asked only when two blobs touch (the common board has none: no cost there).
    """
    out = list(bases)
    touching = [
        (i, j) for i in range(len(blobs)) for j in range(i + 1, len(blobs)) if touch(blobs[i], blobs[j])
    ]  # fmt: skip
    if not touching:
        return out
    where = point()
    profiles = [_profile(b, where) for b in blobs]
    reach = [float(np.hypot(*(c - where))) for c, _, _ in profiles]
    # How far each pawn's far end lies beyond its base, as placed alone.
    behind = [hi - float((np.asarray(b) - c) @ d) for (c, d, hi), b in zip(profiles, bases, strict=True)]
    for i, (centroid, d, hi) in enumerate(profiles):
        front = [b if a == i else a for a, b in touching if i in (a, b)]
        front = [j for j in front if reach[j] < reach[i]]
        if not front:
            continue
        shift = hi - min(behind[j] for j in front)
        if shift < float((np.asarray(bases[i]) - centroid) @ d):
            x, y = centroid + d * shift
            out[i] = (float(x), float(y))
    return out


def touch(a: Blob, b: Blob, gap: int = TOUCH_GAP) -> bool:
    """Whether two blobs come within ``gap`` pixels of each other (chessboard distance)."""
    (ax, ay, aw, ah), (bx, by, bw, bh) = a[0], b[0]
    x0, y0 = max(ax, bx) - gap, max(ay, by) - gap
    x1, y1 = min(ax + aw, bx + bw) + gap, min(ay + ah, by + bh) + gap
    if x0 >= x1 or y0 >= y1:
        return False  # their boxes, grown by the gap, do not even meet
    # Both blobs on one canvas: where the grown boxes meet, and the gap around it.
    window = (x0 - gap, y0 - gap, x1 - x0 + 2 * gap, y1 - y0 + 2 * gap)
    grown = cv2.dilate(_on_canvas(a, window), np.ones((2 * gap + 1, 2 * gap + 1), np.uint8))
    return bool(np.any(grown & _on_canvas(b, window)))


def _on_canvas(blob: Blob, window: tuple[int, int, int, int]) -> np.ndarray:
    """The blob's pixels within ``window`` (x, y, w, h) as a uint8 image of the window's size."""
    (bx, by, bw, bh), mask = blob
    x, y, w, h = window
    out = np.zeros((h, w), np.uint8)
    sx0, sy0, sx1, sy1 = max(bx, x), max(by, y), min(bx + bw, x + w), min(by + bh, y + h)
    if sx0 < sx1 and sy0 < sy1:
        out[sy0 - y : sy1 - y, sx0 - x : sx1 - x] = mask[sy0 - by : sy1 - by, sx0 - bx : sx1 - bx]
    return out


#: A blob whose principal axes' ratio is at least this is slender: a body seen from its side (or a
#: stroke). The candidates take such a blob along the nadir's ray as a pawn
#: (:func:`vision.pawn_candidates._along_ray`); the features measure its lean along its own long axis
#: within the nadir's uncertainty (:func:`vision.pawn_features._within_cone`).
SLENDER_RATIO = 3.0


def slender_axis(sxx: float, syy: float, sxy: float) -> float | None:
    """The long axis' angle (radians, image axes) of a blob with second moments ``sxx``, ``syy``, ``sxy``,
    or None if it is not slender (its axes' ratio under :data:`SLENDER_RATIO`; the moments' eigenvalues'
    ratio is the axes' ratio squared)."""
    half = (sxx + syy) / 2.0
    spread = math.sqrt(max(half * half - (sxx * syy - sxy * sxy), 0.0))
    if half - spread <= 0 or (half + spread) < SLENDER_RATIO**2 * (half - spread):
        return None
    return 0.5 * math.atan2(2.0 * sxy, sxx - syy)
