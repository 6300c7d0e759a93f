"""Linear light from 8-bit camera values: the reader's one decoding table.

Light adds in linear units: a lamp's glare lays the same amount over corridor and wall, and
a seam between two tiles is the same difference of light whatever lies over it. The stages
that reason that way (:mod:`vision.tile_veil`'s sides against their ends, the seams of
:func:`vision.occlusion_lattice.light_seams` and its twins) must first undo the camera's
encoding. Cameras and phones encode sRGB (IEC 61966-2-1) and so does every JPEG we are
given: a straight segment (slope 1/12.92) up to level 0.04045 (8-bit 10), then a 2.4 power
with an offset. A plain 2.2 power, the usual shorthand, has about the same shape above the
middle greys but not in the dark: at 8-bit 25 it gives 0.63 % where sRGB gives 1.00 %, at 10
0.08 % for 0.30 %, so it crushes the dark end (a night frame, a shadowed corridor, a dark
edition's walls) toward nothing. Before this module the two stages decoded with the two
curves; now both use this table.

The scale is 0..1 (linear light of full white). The measures built on it are ratios (to
the tile's largest side contrast, to the board's median seam), so the scale cancels; only
the curve's shape matters. Moving the seams from the 2.2 power to this curve (o22) changed no
occlusion decision on 4,913 cached frames of six renderers, day, night and occluded (one
occluded frame, spent final8 tr_occ 0004, now names a flat surface instead of unclear tiles);
the seam figures quoted in the occlusion docstrings before it were measured with the 2.2 power
and move by ~0.4 % at the median point, more only at the darkest (a black phone at night).
"""

from __future__ import annotations

import numpy as np

__all__ = ["SRGB_TO_LINEAR", "srgb_to_linear"]


def _srgb_table() -> np.ndarray:
    """Linear light (0..1, float32) of each 8-bit sRGB level (IEC 61966-2-1's decoding curve)."""
    level = np.arange(256, dtype=np.float64) / 255.0
    return np.where(level <= 0.04045, level / 12.92, ((level + 0.055) / 1.055) ** 2.4).astype(np.float32)


#: Linear light (0..1, float32) per 8-bit sRGB level: index with a uint8 image or pass to ``cv2.LUT``.
SRGB_TO_LINEAR = _srgb_table()
SRGB_TO_LINEAR.flags.writeable = False


def srgb_to_linear(image: np.ndarray) -> np.ndarray:
    """Linear light (0..1, float32, same shape) of an 8-bit sRGB image."""
    if image.dtype != np.uint8:
        raise TypeError(f"expected 8-bit values, got {image.dtype}")
    return SRGB_TO_LINEAR[image]
