"""Break the reader's mistakes on a fifth_render folder down by what each frame sampled.

A folder rendered with ``--meta`` holds ``fifth_meta.jsonl`` (look family, pawn shape,
lights, camera...). Given the per-image lines of ``python -m companion vision-test DIR``
(saved to a file), this prints, for every sampled factor, how many frames had each value,
the share of boards read fully right, and the pawn and tile errors per frame, so a weak
spot (a pawn shape, a lamp, a look) shows without reading pictures one by one. It judges
nothing itself and uses only the evaluation's printed lines.

    python -m companion vision-test DIR > results.txt
    python -m tests.support.fifth_render_breakdown DIR results.txt
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from pathlib import Path

from tests.support.fifth_render import META_FILE

NUMERIC = ("camera_cm", "tilt_deg", "roll_deg", "glare", "k1", "width", "tile_px")


def parse_results(text: str) -> dict[str, dict[str, int]]:
    """Per image: wrong (0/1), pawn errors (missed + misplaced + reported though absent), tile errors."""
    out: dict[str, dict[str, int]] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 2 or not re.search(r"\.(jpe?g|png)$", parts[0], re.I):
            continue
        tiles = re.search(r"tiles (\d+)/(\d+)", line)
        pawns = re.search(r"pawns (\d+)/(\d+)", line)
        out[parts[0]] = {
            "wrong": int(parts[1] != "ok"),
            "tile_errors": int(tiles.group(2)) - int(tiles.group(1)) if tiles else 0,
            "pawn_errors": (int(pawns.group(2)) - int(pawns.group(1)) if pawns else 0)
            + line.count("not in the label"),
        }
    return out


def _bucket(key: str, value: object, cuts: dict[str, list[float]]) -> str:
    if key in cuts and isinstance(value, (int, float)) and not isinstance(value, bool):
        v = abs(float(value)) if key == "roll_deg" else float(value)
        lo, hi = cuts[key]
        return f"<{lo:g}" if v < lo else (f">={hi:g}" if v >= hi else f"{lo:g}..{hi:g}")
    return str(value)


def breakdown(meta: list[dict], results: dict[str, dict[str, int]]) -> list[str]:
    """Table lines: factor=value, frames, boards right %, pawn errors/frame, tile errors/frame."""
    cuts: dict[str, list[float]] = {}
    for key in NUMERIC:
        values = sorted(abs(float(m[key])) if key == "roll_deg" else float(m[key]) for m in meta if key in m)
        if len(values) >= 3:
            cuts[key] = [round(values[len(values) // 3], 2), round(values[2 * len(values) // 3], 2)]
    table: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for m in meta:
        res = results.get(m["image"])
        if res is None:
            continue
        for key, value in m.items():
            if key in ("image", "seed"):
                continue
            row = table[(key, _bucket(key, value, cuts))]
            row[0] += 1
            row[1] += 1 - res["wrong"]
            row[2] += res["pawn_errors"]
            row[3] += res["tile_errors"]
    lines = [f"{'factor=value':32s} {'frames':>6s} {'boards':>7s} {'pawn err/fr':>11s} {'tile err/fr':>11s}"]
    for (key, value), (n, right, pawn, tile) in sorted(table.items()):
        lines.append(f"{key + '=' + value:32s} {n:6d} {100 * right / n:6.1f}% {pawn / n:11.2f} {tile / n:11.2f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.support.fifth_render_breakdown", description=__doc__)
    parser.add_argument("folder")
    parser.add_argument("results", help="saved output of `python -m companion vision-test FOLDER`")
    args = parser.parse_args(argv)
    meta_path = Path(args.folder) / META_FILE
    if not meta_path.is_file():
        parser.error(f"{meta_path} not found: render the folder with --meta")
    meta = [json.loads(line) for line in meta_path.read_text().splitlines() if line.strip()]
    results = parse_results(Path(args.results).read_text())
    print("\n".join(breakdown(meta, results)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
