"""Measure the board locator alone at the edges of the promise (rotation, tilt, size, frame edge).

The renderers draw their camera poses at random, so instead of steering them this
tool bins labelled frames by the pose their label's ``corners`` show:

* ``roll``: the in-plane rotation of the board's rows (mean angle of the top and
  bottom edges, degrees; row 0 is the top row, so it lies in -45..45);
* ``tilt``: the camera's tilt off the board's normal, from the homography of the
  label's quad under a pinhole camera centred on the frame (the focal length solved
  from the square board's orthogonal axes); 0 when the quad is too square to tell;
* ``board``: the board's diagonal as a share of the frame's diagonal;
* ``edge``: how close the board comes to the frame's edge, in tiles (negative when a
  corner is outside the frame).

For each frame it runs :func:`vision.locate.locate_board` and records the largest
corner error in tiles against the label (same corner order), whether the answer is
the board turned by a quarter (a smaller error after cycling the corners: row 0 not
the top row), "not found", and the locate time. It judges nothing and changes
nothing; it only prints.

    python -m tests.support.pose_sweep DIR [DIR ...] [--jsonl OUT] [--bins]
    python -m tests.support.pose_sweep --from-jsonl OUT [--bins]
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from vision.dataset import decode_image, load_folder
from vision.locate import DEFAULT_CONFIG, BoardNotFoundError, LocateConfig, locate_board

OFF_TILES = 0.1  # a corner further off than this (tiles) costs tile reads


def pose_of(corners: np.ndarray, shape: tuple[int, int]) -> dict[str, float]:
    """Roll, tilt, board share and edge distance of a labelled quad (TL TR BR BL) in a ``shape`` (h, w) frame."""
    q = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    h, w = shape
    top, bottom = q[1] - q[0], q[2] - q[3]
    roll = float(np.degrees(np.arctan2(top[1] + bottom[1], top[0] + bottom[0])))
    sides = np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1)
    pitch = float(sides.mean()) / 7.0
    diag = float(np.linalg.norm(q[2] - q[0]) + np.linalg.norm(q[3] - q[1])) / 2.0
    margin = min(q[:, 0].min(), q[:, 1].min(), w - q[:, 0].max(), h - q[:, 1].max())
    return {
        "roll": roll,
        "tilt": _tilt(q, (w / 2.0, h / 2.0)),
        "board": diag / float(np.hypot(w, h)),
        "edge": float(margin) / pitch,
        "pitch": pitch,
        "width": float(w),
    }


def _tilt(q: np.ndarray, centre: tuple[float, float]) -> float:
    """Camera tilt (degrees) off the board's normal, from the unit square -> ``q`` homography.

    ``centre`` is the assumed principal point (the frame's centre)."""
    import cv2

    src = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], dtype=np.float32)
    dst = (q - np.asarray(centre)).astype(np.float32)
    hom = cv2.getPerspectiveTransform(src, dst)
    h1, h2 = hom[:, 0], hom[:, 1]
    # r1 . r2 = 0 with K = diag(f, f, 1): (h1x h2x + h1y h2y) / f^2 + h1z h2z = 0
    denom = h1[2] * h2[2]
    if abs(denom) < 1e-12:
        return 0.0
    f2 = -(h1[0] * h2[0] + h1[1] * h2[1]) / denom
    if f2 <= 0:
        return 0.0
    kinv = np.diag([1.0 / np.sqrt(f2), 1.0 / np.sqrt(f2), 1.0])
    r1, r2 = kinv @ h1, kinv @ h2
    r1, r2 = r1 / np.linalg.norm(r1), r2 / np.linalg.norm(r2)
    normal = np.cross(r1, r2)
    return float(np.degrees(np.arccos(min(1.0, abs(normal[2]) / np.linalg.norm(normal)))))


def steer(
    image: np.ndarray, corners: np.ndarray, roll: float | None = None, size: tuple[int, int] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The frame turned so that its board shows ``roll`` degrees, and scaled to ``size`` (w, h).

    The renderers draw poses at random; this reaches the edges of the promise with
    their own boards, lenses and lighting. The turn is about the frame's centre, where
    every renderer's lens is centred (up to a principal-point offset of ~2 %), so the
    turned photo is one a turned camera could take; a board that would leave the
    frame is shrunk about the centre, as by a longer camera distance. A shift of the
    photo would move the lens's centre off the frame's, which no camera does, so a
    board is not pushed toward the frame's edge here (the ``edge`` bins of the plain
    renders measure that). Uncovered frame gets the photo's median colour: flat, no lattice.
    """
    import cv2

    q = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    h, w = image.shape[:2]
    centre = ((w - 1) / 2.0, (h - 1) / 2.0)
    turn = 0.0 if roll is None else pose_of(q, (h, w))["roll"] - roll  # cv2: positive = anticlockwise
    mat = np.vstack([cv2.getRotationMatrix2D(centre, turn, 1.0), [0, 0, 1]])
    moved = (np.c_[q, np.ones(4)] @ mat.T)[:, :2]
    pitch = float(np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1).mean()) / 7.0
    room = np.array([centre[0] - 0.6 * pitch, centre[1] - 0.6 * pitch])  # the board's frame stays in view
    shrink = min(1.0, float((room / np.abs(moved - centre).max(axis=0)).min()))
    mat = np.vstack([cv2.getRotationMatrix2D(centre, turn, shrink), [0, 0, 1]])
    if size is not None:
        mat = np.diag([size[0] / w, size[1] / h, 1.0]) @ mat
        w, h = size
    fill = tuple(float(v) for v in np.median(image.reshape(-1, image.shape[-1]), axis=0))
    out = cv2.warpAffine(
        image,
        mat[:2],
        (w, h),
        flags=cv2.INTER_AREA if size else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=fill,
    )
    return out, (np.c_[q, np.ones(4)] @ mat.T)[:, :2]


def measure(
    folder: Path, steering: dict[str, Any] | None = None, config: LocateConfig | None = None
) -> list[dict[str, Any]]:
    """One record per labelled frame of ``folder`` with corners: its pose, the locate outcome and time.

    With ``steering`` (keyword arguments of :func:`steer`; a ``roll`` is applied with
    alternating sign) every frame is first moved to that pose."""
    rows: list[dict[str, Any]] = []
    for i, sample in enumerate(load_folder(folder).samples):
        if sample.label.corners is None:
            continue
        image, _ = decode_image(sample.path)
        if image is None:
            continue
        truth = np.asarray(sample.label.corners, dtype=np.float64)
        if steering:
            args = dict(steering)
            if args.get("roll") is not None:
                args["roll"] = args["roll"] * (1 if i % 2 else -1)
            image, truth = steer(image, truth, **args)
        row: dict[str, Any] = {
            "folder": str(folder),
            "name": sample.name,
            "lighting": sample.label.lighting,
            "occluded": sample.label.occluded,
        }
        row.update(pose_of(truth, image.shape[:2]))
        start = time.perf_counter()
        try:
            located = locate_board(image, config)
            found = located.corners.astype(np.float64)
            row["k"] = 0.0 if located.lens is None else located.lens.k
            row["corners"] = np.round(found, 2).tolist()
        except BoardNotFoundError as exc:
            found, row["reason"] = None, exc.reason
        row["ms"] = (time.perf_counter() - start) * 1000.0
        if found is None:
            row["error"], row["turned"] = None, False
        else:
            errs = [
                float(np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).max()) / row["pitch"] for k in range(4)
            ]
            row["error"] = errs[0]
            row["turned"] = min(errs[1:]) < 0.5 < errs[0]
        rows.append(row)
    return rows


BINS: dict[str, list[float]] = {
    "roll": [-90, -30, -20, -10, 10, 20, 30, 90],
    "tilt": [0, 5, 10, 15, 20, 90],
    "board": [0, 0.3, 0.4, 0.5, 0.6, 0.7, 1.0],
    "edge": [-99, 0, 0.5, 1, 2, 99],
    "width": [0, 1300, 1500, 1700, 2100],
}


def _outcome(rows: list[dict[str, Any]]) -> str:
    n = len(rows)
    missing = sum(r["error"] is None for r in rows)
    turned = sum(bool(r["turned"]) for r in rows)
    off = sum(r["error"] is not None and not r["turned"] and r["error"] > OFF_TILES for r in rows)
    errs = [r["error"] for r in rows if r["error"] is not None and not r["turned"]]
    med = float(np.median(errs)) if errs else float("nan")
    worst = max(errs) if errs else float("nan")
    return (
        f"n {n:4d}  not found {missing:3d}  off>{OFF_TILES} {off:3d}  turned {turned:3d}"
        f"  median {med:.3f}  worst {worst:.2f}"
    )


def report(rows: list[dict[str, Any]], bins: bool) -> None:
    """Print the outcome per folder and lighting, then (with ``bins``) per pose bin over all frames."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[f"{Path(r['folder']).parent.name[-6:]}/{Path(r['folder']).name:9s} {r['lighting']:5s}"].append(r)
    for key in sorted(groups):
        print(f"{key}  {_outcome(groups[key])}")
    print(f"{'all':20s}  {_outcome(rows)}")
    if not bins:
        return
    for feat, edges in BINS.items():
        print(f"-- by {feat}")
        for lo, hi in itertools.pairwise(edges):
            inside = [r for r in rows if lo <= r[feat] < hi]
            if inside:
                print(f"  {feat} {lo:>6} .. {hi:<6}  {_outcome(inside)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--jsonl", type=Path, help="also write one JSON line per frame here")
    parser.add_argument("--from-jsonl", type=Path, help="report on a saved run instead of measuring")
    parser.add_argument("--bins", action="store_true", help="also break the outcome down by pose")
    parser.add_argument("--roll", type=float, help="turn every board to +-ROLL degrees (sign alternating)")
    parser.add_argument("--size", help="resize every frame to WxH")
    parser.add_argument("--set", action="append", default=[], help="a LocateConfig field=value to try (repeatable)")
    args = parser.parse_args(argv)
    steering: dict[str, Any] = {"roll": args.roll}
    if args.size:
        steering["size"] = tuple(int(v) for v in args.size.lower().split("x"))
    changes = {key: type(getattr(DEFAULT_CONFIG, key))(value) for key, value in (s.split("=") for s in args.set)}
    config = dataclasses.replace(DEFAULT_CONFIG, **changes)
    rows: list[dict[str, Any]] = []
    if args.from_jsonl:
        rows = [json.loads(line) for line in args.from_jsonl.read_text().splitlines() if line.strip()]
    for folder in args.folders:
        fresh = measure(folder, steering, config)
        rows.extend(fresh)
        if args.jsonl:  # folder by folder, so a long run's finished folders are kept
            with args.jsonl.open("a") as out:
                out.write("".join(json.dumps(r) + "\n" for r in fresh))
    report(rows, args.bins)


if __name__ == "__main__":
    main()
