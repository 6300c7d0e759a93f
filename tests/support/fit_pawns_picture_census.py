"""Is a day blob one part of a larger printed picture? Cues of the picture round each blob, per blob (p47).

Usage (from the repo root)::

    python -m tests.support.fit_pawns_picture_census FOLDER OUT.pkl [label]
    python -m tests.support.fit_pawns_picture_census --table NAME=OUT.pkl ...

Every candidate blob of each day frame is scored as the reader scores it (the reader's located
corners, or the label's with ``label``; no early floor) and labelled a pawn as in
``tests/support/fit_pawns.py`` (its colour in the label, its box touching the labelled square).
``--table`` prints, per cue and folder, three AUCs of "a print's value is higher": over every
blob at 0.3 or more, over the prints the reader chose, and over the doubtful band 0.3-0.7; then,
in each contest (a colour with two blobs over 0.5, one of them its pawn), how often the model and
the cue pick the pawn.

Round each blob, in a window 0.4 tile wide, a pixel is *material* (the chromaticity of the frame's
wall or corridor there, at any lightness down to a shadow's), *own* (the blob's pawn hue) or *ink*
(anything else: another ink, a dark outline, a pale disc). The question: a print is one part of a
larger picture (other inks, an outline, a disc round it), while a pawn is one moulded solid standing
on the tile, its colour filling its whole silhouette and its rim lit on one side, shaded on the other.
Measurements: vision/notes/pawns.md (p47).
"""

from __future__ import annotations

import collections
import pickle
import sys
from collections.abc import Callable, Sequence
from typing import Any

import cv2
import numpy as np

import vision.pawns as pawns_module
from vision.dataset import iter_decoded, load_folder
from vision.occlusion_lattice import shade_invariant
from vision.pawn_candidates import Candidate, candidates, zones
from vision.pawn_colour import HUE_RANGES, hue_only
from vision.pawn_features import FEATURES
from vision.pawn_model import confidence, with_set_size
from vision.reader import BoardReader

Row = dict[str, Any]
_CAPTURED: dict[str, Any] = {}
_find_pawns = pawns_module.find_pawns


def _capturing_find_pawns(*args: Any, **kwargs: Any) -> Any:
    """The reader's own pawn stage, keeping its arguments and result for the census."""
    out = _find_pawns(*args, **kwargs)
    _CAPTURED["args"], _CAPTURED["kwargs"], _CAPTURED["out"] = args, kwargs, out
    return out


def _disc(radius: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))


def _material_like(chroma: np.ndarray, total: np.ndarray, where: np.ndarray) -> tuple[np.ndarray, float] | None:
    """Pixels of ``where``'s material (chromaticity within its own spread; lightness down to a shadow's)."""
    if np.count_nonzero(where) < 20:
        return None
    ref = chroma[where]
    median = np.median(ref, axis=0)
    tolerance = max(2.0, 1.5 * float(np.percentile(np.sqrt(((ref - median) ** 2).sum(axis=1)), 90)))
    bright = float(np.median(total[where]))
    return (np.sqrt(((chroma - median) ** 2).sum(axis=-1)) < tolerance) & (total > 0.3 * bright), bright


def _sector_of(ys: np.ndarray, xs: np.ndarray, cy: float, cx: float) -> np.ndarray:
    """Which of 8 sectors round (cy, cx) each pixel lies in."""
    return ((np.arctan2(ys - cy, xs - cx) + np.pi) / (2 * np.pi) * 8).astype(int) % 8


def cues(
    rect: Any,
    cand: Candidate,
    zone: np.ndarray,
    hsv: np.ndarray,
    chroma: np.ndarray,
    total: np.ndarray,
    pawns: np.ndarray,
) -> Row:
    """The picture cues of one blob (see the module docstring); empty where no material is seen round it."""
    t = rect.tile_px
    pad = round(0.4 * t)
    x, y, w, h = cand.box
    height, width = cand.labels.shape
    x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(width, x + w + pad), min(height, y + h + pad)
    win = (slice(y0, y1), slice(x0, x1))
    blob = cand.labels[win] == cand.index
    n = max(1, int(np.count_nonzero(blob)))
    b8 = blob.astype(np.uint8)
    away = ~cv2.dilate(b8, _disc(round(0.15 * t))).astype(bool)
    found = [_material_like(chroma[win], total[win], zone[k][win] & away) for k in (0, 1)]
    mats = [m for m in found if m is not None]
    if not mats:
        return {}
    material = np.logical_or.reduce([like for like, _ in mats])
    bright = max(b for _, b in mats)
    hs, tot = hsv[win], total[win]
    own_hue = hue_only(hs[..., 0], HUE_RANGES[cand.color])
    own = own_hue & (hs[..., 1] >= 60) & ~blob
    ink = ~material & ~own & ~blob
    outline = cv2.dilate(b8, _disc(1)).astype(bool)
    ring = cv2.dilate(b8, _disc(max(2, round(0.08 * t)))).astype(bool) & ~blob
    out: Row = {
        "ring_ink": float(ink[ring].mean()) if ring.any() else 0.0,
        "ring_material": float(material[ring].mean()) if ring.any() else 0.0,
    }
    # the picture: ink and own-hue pixels connected to the blob's outline
    reach = (ink | own | outline).astype(np.uint8)
    _, comp = cv2.connectedComponents(reach, connectivity=8)
    touching = np.unique(comp[outline & (reach > 0)])
    picture = np.isin(comp, touching[touching > 0])
    out["ink_beyond"] = float(np.count_nonzero(picture & ink)) / n
    out["own_beyond"] = float(np.count_nonzero(picture & own)) / n
    out["picture_beyond"] = out["ink_beyond"] + out["own_beyond"]
    out["n_inks"], out["dark_ink"] = _distinct_inks(hs, tot, picture & ink, bright, t, n)
    ys, xs = np.nonzero(blob)
    cy, cx = float(ys.mean()), float(xs.mean())
    # a disc or outline closing round the blob: the least non-material share over 8 sectors of a thin ring
    thin = cv2.dilate(b8, _disc(max(2, round(0.06 * t)))).astype(bool) & ~outline
    ry, rx = np.nonzero(thin)
    if len(ry):
        sector = _sector_of(ry, rx, cy, cx)
        shares = [float((~material[ry, rx])[sector == s].mean()) for s in range(8) if (sector == s).any()]
        out["closed_nonmat"] = min(shares)
        out["ring_chroma_sd"] = float(np.sqrt(chroma[win][ry, rx].var(axis=0).sum()))
    # another ink inside or touching the silhouette (a picture's second colour), not another colour's pawn
    contours, _ = cv2.findContours(b8, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull, filled = np.zeros_like(b8), np.zeros_like(b8)
    cv2.fillPoly(hull, [cv2.convexHull(np.vstack(contours))], 1)
    cv2.drawContours(filled, contours, -1, 1, thickness=-1)
    other = (hs[..., 1] >= 70) & (hs[..., 2] >= 50) & ~own_hue & ~blob & ~material & ~pawns[win]
    out["hull_other"] = float(np.count_nonzero(other & (hull > 0))) / n
    out["hole_other"] = float(np.count_nonzero(other & (filled > 0))) / n
    out["second_ink"] = float(np.count_nonzero(other & (cv2.dilate(b8, _disc(2)) > 0))) / n
    out["hull_unfilled"] = float(np.count_nonzero((hull > 0) & ~blob & ~material)) / n
    out.update(_rim(blob, hs, tot, cy, cx, t))
    return out


def _distinct_inks(
    hs: np.ndarray, total: np.ndarray, ink: np.ndarray, bright: float, t: int, n: int
) -> tuple[float, float]:
    """How many inks (dark, pale, or one of six hue bins) hold 10 % of the picture's ink; the dark share."""
    if not ink.any():
        return 0.0, 0.0
    dark = total[ink] < 0.35 * bright
    kind = np.where(dark, 6, np.where(hs[..., 1][ink] < 50, 7, hs[..., 0][ink].astype(int) // 30))
    counts = np.bincount(kind, minlength=8)
    many = (counts >= 0.1 * counts.sum()) & (counts >= max(3, round(0.01 * t * t)))
    return float(np.count_nonzero(many)), float(counts[6]) / n


def _rim(blob: np.ndarray, hs: np.ndarray, total: np.ndarray, cy: float, cx: float, t: int) -> Row:
    """The blob's rim: a pale disc of its own hue runs evenly all round; a lit body has a lit and a shaded side."""
    core = cv2.erode(blob.astype(np.uint8), _disc(max(1, round(0.05 * t)))).astype(bool)
    rim = blob & ~core
    if np.count_nonzero(core) < 5 or np.count_nonzero(rim) < 8:
        return {}
    yy, xx = np.nonzero(rim)
    sector, values = _sector_of(yy, xx, cy, cx), total[yy, xx]
    medians = [float(np.median(values[sector == s])) for s in range(8) if np.count_nonzero(sector == s) >= 2]
    even = (max(medians) - min(medians)) / max(1.0, float(np.median(values))) if len(medians) >= 4 else 1.0
    return {
        "rim_sat_drop": float(np.median(hs[..., 1][core])) - float(np.median(hs[..., 1][rim])),
        "rim_uneven": even,
    }


def _is_pawn(cand: Candidate, truth: tuple[int, int] | None, t: int, m: int) -> bool:
    """As ``tests/support/fit_pawns.py``: the blob's box touches its colour's labelled square."""
    if truth is None:
        return False
    x, y, w, h = cand.box
    sx0, sy0 = m + truth[1] * t - 0.15 * t, m + truth[0] * t - 0.15 * t
    return x < sx0 + 1.3 * t and x + w > sx0 and y < sy0 + 1.3 * t and y + h > sy0


def run(folder: str, use_label: bool) -> list[Row]:
    """Every day blob of ``folder``'s frames with its probability, truth and picture cues."""
    pawns_module.find_pawns = _capturing_find_pawns
    reader, rows = BoardReader(), []
    try:
        for sample, image, _ in iter_decoded(load_folder(folder)):
            if image is None or sample.label.occluded:
                continue
            _CAPTURED.clear()
            reader.read_detailed(image, corners=sample.label.corners if use_label else None)
            if "args" in _CAPTURED:
                rows += _frame_rows(sample, _CAPTURED["args"], _CAPTURED["kwargs"], _CAPTURED["out"])
    finally:
        pawns_module.find_pawns = _find_pawns
    return rows


def _frame_rows(sample: Any, args: tuple, kwargs: dict, chosen: Sequence[Any]) -> list[Row]:
    rect, tiles, cfg, model = (list(args) + [None] * 4)[:4]
    if kwargs.get("lighting", "day") == "night" or tiles is None:
        return []
    found = candidates(rect, tiles, cfg, model, kwargs.get("camera"), None)
    if not found:
        return []
    scored = with_set_size([c.features for c in found], cfg.model, [c.color for c in found])
    scored = pawns_module._hidden_sizes(found, scored, cfg.model)
    probs = [confidence(r, cfg.model) for r in scored]
    zone = zones(rect, tiles)
    hsv = cv2.cvtColor(rect.image, cv2.COLOR_BGR2HSV)
    chroma = shade_invariant(rect.image, 0.0)[..., :2]
    total = rect.image.astype(np.float32).sum(axis=2)
    likely = np.zeros(rect.image.shape[:2], dtype=bool)
    for cand, p in zip(found, probs, strict=True):
        if p >= 0.5:
            likely |= cand.labels == cand.index
    boxes = {d.color: d.box for d in chosen}
    rows = []
    for cand, p, r in zip(found, probs, scored, strict=True):
        row: Row = {
            "img": sample.name,
            "colour": cand.color.value,
            "p": p,
            "chosen": boxes.get(cand.color) == cand.box,
            "pawn": _is_pawn(cand, sample.label.pawns.get(cand.color), rect.tile_px, rect.margin_px),
        }
        others = likely & ~(cand.labels == cand.index)
        row["cues"] = cues(rect, cand, zone, hsv, chroma, total, others)
        row["features"] = dict(zip(FEATURES, r, strict=True))
        rows.append(row)
    return rows


def auc(high: Sequence[float], low: Sequence[float]) -> float:
    """The chance that a value of ``high`` exceeds one of ``low`` (ties half)."""
    a, b = np.asarray(high, dtype=float), np.asarray(low, dtype=float)
    if not len(a) or not len(b):
        return float("nan")
    return float((a[:, None] > b[None, :]).mean() + 0.5 * (a[:, None] == b[None, :]).mean())


def _aucs(rows: Sequence[Row], cue: str) -> str:
    has = [r for r in rows if cue in r["cues"] and r["p"] >= 0.3]

    def values(keep: Callable[[Row], bool]) -> list[float]:
        return [r["cues"][cue] for r in has if keep(r)]

    prints, pawns = values(lambda r: not r["pawn"]), values(lambda r: r["pawn"])
    chosen = values(lambda r: not r["pawn"] and r["chosen"])
    band_prints = values(lambda r: not r["pawn"] and r["p"] < 0.7)
    band_pawns = values(lambda r: r["pawn"] and r["p"] < 0.7)
    return f"{auc(prints, pawns):.2f}/{auc(chosen, pawns):.2f}/{auc(band_prints, band_pawns):.2f}"


def _contests(rows: Sequence[Row], cue: str, pawn_higher: bool) -> str:
    groups: dict[tuple[str, str], list[Row]] = collections.defaultdict(list)
    for r in rows:
        if r["p"] >= 0.5 and cue in r["cues"]:
            groups[(r["img"], r["colour"])].append(r)
    contests = [g for g in groups.values() if len(g) > 1 and sum(r["pawn"] for r in g) == 1]
    sign = 1.0 if pawn_higher else -1.0
    model = sum(max(g, key=lambda r: r["p"])["pawn"] for g in contests)
    cue_right = sum(max(g, key=lambda r: sign * r["cues"][cue])["pawn"] for g in contests)
    return f"{len(contests)}: model {model}, cue {cue_right}"


def table(named: Sequence[tuple[str, list[Row]]]) -> None:
    """Per cue and folder: AUCs (print higher: all >= 0.3 / chosen prints / band 0.3-0.7)."""
    for name, rows in named:
        pawns = [r for r in rows if r["pawn"] and r["p"] >= 0.3]
        prints = [r for r in rows if not r["pawn"] and r["p"] >= 0.3]
        print(f"{name}: pawns {len(pawns)}, prints {len(prints)} (chosen {sum(r['chosen'] for r in prints)})")
    cues_seen = list(dict.fromkeys(k for _, rows in named for r in rows for k in r["cues"]))
    print(f"{'cue':15s} " + "  ".join(f"{name:>14s}" for name, _ in named))
    for cue in cues_seen:
        print(f"{cue:15s} " + "  ".join(f"{_aucs(rows, cue):>14s}" for _, rows in named))
    print("contests (a colour with two blobs over 0.5, one its pawn): how often each picks the pawn")
    for name, rows in named:
        print(f"  {name}: rim_uneven {_contests(rows, 'rim_uneven', True)}")


def main(argv: Sequence[str]) -> int:
    if argv[0] == "--table":
        named = []
        for item in argv[1:]:
            name, path = item.split("=", 1)
            with open(path, "rb") as f:
                named.append((name, pickle.load(f)))
        table(named)
        return 0
    rows = run(argv[0], len(argv) > 2 and argv[2] == "label")
    with open(argv[1], "wb") as f:
        pickle.dump(rows, f)
    print(f"{len(rows)} blobs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
