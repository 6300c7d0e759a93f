"""``labyrinth-companion vision-test DIR [--json] [--save-debug OUT]``: the reader on a labelled folder.

Prints one line per image and a summary; ``--json`` prints only the summary
object on stdout (see :mod:`vision.evaluate` for the metric definitions). A
progress bar goes to stderr, and only when stderr is a terminal, so stdout stays
clean for scripts. Skipped files (no label, invalid label, undecodable image) are
listed on stderr with their reason and counted in ``images`` but not in ``readable``.
A folder with no readable labelled photo still prints its counts, but says so on
stderr and exits 1: its accuracies (ratios over nothing) would otherwise read as a pass.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from companion.errors import UsageError


class ProgressBar:
    """A one-line ``[#####.....] 12/40`` bar redrawn in place on a terminal stream."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width

    def __call__(self, done: int, total: int) -> None:
        filled = self.width * done // max(1, total)
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total}")
        if done >= total:
            self.stream.write("\r" + " " * (self.width + 20) + "\r")
        self.stream.flush()


def run(args: argparse.Namespace) -> int:
    folder = Path(args.dir)
    if not folder.is_dir():
        raise UsageError(f"{folder}: no such folder" if not folder.exists() else f"{folder}: not a folder")
    from vision.evaluate import evaluate_folder  # heavy imports (OpenCV) only when the command runs

    progress = ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    evaluation = evaluate_folder(folder, progress=progress, debug_dir=args.save_debug)
    for note in evaluation.notes:
        print(f"note: {note}", file=sys.stderr)
    for skipped in evaluation.skipped:
        print(str(skipped), file=sys.stderr)
    summary = evaluation.summary
    status = 0
    if summary.readable == 0:
        print(
            f"error: {folder}: no readable labelled photo ({summary.images} skipped); "
            "add photos with same-stem .json labels (FORMATS.md §5)",
            file=sys.stderr,
        )
        status = 1
    if args.json:
        print(json.dumps(summary.to_json()))
        return status
    for result in evaluation.results:
        print(result.line())
    s = summary.to_json()
    print(
        f"images {s['images']}  readable {s['readable']}  boards {s['board_accuracy']:.1%}  "
        f"tiles {s['tile_accuracy']:.2%}  pawns {s['pawn_accuracy']:.1%}  "
        f"occlusion {s['occlusion_accuracy']:.1%}  median {s['ms_median']:.1f} ms"
    )
    return status


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "vision-test", help="read every labelled photo of a folder and report accuracy (FORMATS.md §5)"
    )
    p.add_argument("dir", metavar="DIR", help="folder of images with same-stem .json labels")
    p.add_argument("--json", action="store_true", help="print only the summary JSON object on stdout")
    p.add_argument("--save-debug", metavar="OUT", help="write annotated pictures (grid, openings, pawns, mistakes)")
    p.set_defaults(func=run)
