"""``labyrinth-companion render-photos``: write labelled synthetic photos to a folder.

Each image ``NNNN.jpg`` gets a sidecar ``NNNN.json`` label (FORMATS.md §5), so
the folder can be read back by ``vision-test`` and the pytest fixtures. Image
``i`` is rendered from seed ``SEED + i``; which images carry hands is drawn
from ``SEED`` too, so the same command always writes the same files.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import cv2
import numpy as np

from companion.errors import UsageError
from vision.render import LIGHTINGS, LOOKS, random_scene


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x960"`` -> ``(1280, 960)``; a clear error for anything else."""
    parts = text.lower().split("x")
    try:
        w, h = (int(p) for p in parts)
    except ValueError:
        raise UsageError(f"invalid --size {text!r}: write WIDTHxHEIGHT, e.g. 1280x960") from None
    if not (64 <= w <= 8000 and 48 <= h <= 8000):
        raise UsageError(f"invalid --size {text!r}: width 64..8000 and height 48..8000 pixels")
    return w, h


def parse_looks(text: str | None) -> list[str] | None:
    """``--look`` value -> the looks to pick from (None: any look, chosen by the renderer from the seed)."""
    if text is None or text.strip().lower() == "mixed":
        return None
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in LOOKS]
    if unknown or not names:
        raise UsageError(f"unknown --look {', '.join(unknown) or text!r}: choose from {', '.join(LOOKS)} or mixed")
    return names


def occluded_indices(count: int, fraction: float, seed: int) -> set[int]:
    """Which of ``count`` images show hands: ``round(count * fraction)`` of them, spread by ``seed``."""
    k = round(count * fraction)
    return set(random.Random(seed).sample(range(count), k)) if k else set()


def encode_jpeg(image: np.ndarray, quality: int, max_kb: float | None) -> tuple[bytes, int]:
    """JPEG bytes at ``quality``, stepping the quality down (to 40 at most) until the file fits ``max_kb``."""
    while True:
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            raise UsageError("JPEG encoding failed")
        if max_kb is None or len(buf) <= max_kb * 1000 or quality <= 40:
            return buf.tobytes(), quality
        quality = max(40, quality - 5)


def run(args: argparse.Namespace) -> int:
    if args.count < 0:
        raise UsageError(f"--count must be 0 or more, got {args.count}")
    if not 0.0 <= args.occluded_fraction <= 1.0:
        raise UsageError(f"--occluded-fraction must be between 0 and 1, got {args.occluded_fraction}")
    if not 1 <= args.quality <= 100:
        raise UsageError(f"--quality must be 1..100, got {args.quality}")
    if args.max_kb is not None and args.max_kb <= 0:
        raise UsageError(f"--max-kb must be positive, got {args.max_kb}")
    size = parse_size(args.size)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create {out}: {exc.strerror}") from None
    looks = parse_looks(args.look)
    hands = occluded_indices(args.count, args.occluded_fraction, args.seed)
    for i in range(args.count):
        seed = args.seed + i
        # the file is compressed once, at --quality: no extra JPEG round trip inside the renderer
        look = None if looks is None else looks[random.Random(seed).randrange(len(looks))]
        image, label = random_scene(seed, look=look, lighting=args.lighting, size=size, occlusion=i in hands,
                                    jpeg_quality=None)  # fmt: skip
        stem = out / f"{i:04d}"
        data, quality = encode_jpeg(image, args.quality, args.max_kb)
        try:
            stem.with_suffix(".jpg").write_bytes(data)
            stem.with_suffix(".json").write_text(json.dumps(label) + "\n", encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {stem}: {exc.strerror}") from None
        if not args.quiet:
            state = "occluded" if label["occluded"] else f"{len(label['pawns'])} pawns"
            print(f"{stem.name}.jpg seed={seed} {args.lighting} {state} q={quality} {len(data) // 1000} KB",
                  file=sys.stderr)  # fmt: skip
    print(f"wrote {args.count} labelled photos to {out}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "render-photos",
        help="write synthetic labelled board photos (NNNN.jpg + NNNN.json)",
        description="Render random boards as overhead camera photos with FORMATS.md §5 labels.",
    )
    p.add_argument("out", metavar="OUT", help="folder to write (created if missing)")
    p.add_argument("--count", type=int, default=10, help="number of photos (default 10)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first photo; photo i uses SEED+i (default 0)")
    p.add_argument("--lighting", choices=LIGHTINGS, default="day", help="day or night (default day)")
    p.add_argument("--look", default=None, metavar="NAME[,NAME...]",
                   help=f"artwork look, or a comma-separated list to pick from per photo ({', '.join(LOOKS)}); "
                        "default: mixed, any look")  # fmt: skip
    p.add_argument("--occluded-fraction", type=float, default=0.0, metavar="F",
                   help="share of photos with hands over the board, 0..1 (default 0)")  # fmt: skip
    p.add_argument("--size", default="1640x1232", metavar="WxH", help="image size (default 1640x1232)")
    p.add_argument("--quality", type=int, default=85, metavar="Q", help="JPEG quality 1..100 (default 85)")
    p.add_argument("--max-kb", type=float, default=None, metavar="KB",
                   help="lower the JPEG quality (by 5, down to 40) until each file fits in KB kilobytes")  # fmt: skip
    p.add_argument("--quiet", action="store_true", help="no per-photo lines on stderr")
    p.set_defaults(func=run)
