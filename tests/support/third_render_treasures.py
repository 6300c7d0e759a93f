"""Third held-out renderer: the small treasure pictures printed on 24 tiles.

Each treasure name gets, per edition and photo family, a deterministic picture: a gem,
coin, star, creature, shield, key, potion, moon, flower or eye in two random colours,
sometimes on a round medallion. Drawn with OpenCV's anti-aliased primitives.
"""

from __future__ import annotations

import zlib

import cv2
import numpy as np


def _star(cx, cy, r, k=5, inner=0.45, phase=0.0):
    pts = []
    for i in range(2 * k):
        rr = r if i % 2 == 0 else r * inner
        a = phase + np.pi * i / k - np.pi / 2
        pts.append((cx + rr * np.cos(a), cy + rr * np.sin(a)))
    return np.array(pts)


def draw_treasure(img: np.ndarray, name: str, salt: int, cx: float, cy: float, size: float) -> None:
    """Paint a small picture (uint8 RGB ``img``, in place) centred at (cx, cy)."""
    rng = np.random.default_rng(zlib.crc32(f"{salt}:{name}".encode()))
    kind = rng.choice(["gem", "coin", "star", "creature", "shield", "key", "potion", "moon", "flower", "eye"])
    c1 = tuple(int(v) for v in rng.integers(30, 255, 3))
    c2 = tuple(int(v) for v in rng.integers(30, 255, 3))
    dark = (int(rng.integers(0, 60)),) * 3
    r = size / 2
    sh = 4
    S = 1 << sh

    def P(pts):
        return (np.asarray(pts) * S).astype(np.int32)

    def circ(x, y, rad, col, th=-1):
        cv2.circle(img, (int(x * S), int(y * S)), int(rad * S), col, th if th < 0 else max(1, int(th)), cv2.LINE_AA, sh)

    if rng.random() < 0.45:  # a medallion behind the picture
        circ(cx, cy, r * 1.05, tuple(int(v) for v in rng.integers(120, 250, 3)))
        circ(cx, cy, r * 1.05, dark, max(1, r * 0.08))
        r *= 0.8
    if kind == "gem":
        pts = [(cx, cy - r), (cx + r * 0.8, cy - r * 0.2), (cx, cy + r), (cx - r * 0.8, cy - r * 0.2)]
        cv2.fillPoly(img, [P(pts)], c1, cv2.LINE_AA, sh)
        cv2.fillPoly(img, [P([(cx, cy - r), (cx + r * 0.8, cy - r * 0.2), (cx, cy)])], c2, cv2.LINE_AA, sh)
        cv2.polylines(img, [P(pts)], True, dark, max(1, int(r * 0.08)), cv2.LINE_AA, sh)
    elif kind == "coin":
        circ(cx, cy, r, c1)
        circ(cx, cy, r * 0.62, c2)
        circ(cx, cy, r, dark, r * 0.1)
    elif kind == "star":
        cv2.fillPoly(img, [P(_star(cx, cy, r, int(rng.integers(4, 8)), rng.uniform(0.35, 0.6)))], c1, cv2.LINE_AA, sh)
        circ(cx, cy, r * 0.22, c2)
    elif kind == "creature":
        cv2.ellipse(img, (int(cx * S), int(cy * S)), (int(r * S), int(r * 0.8 * S)), 0, 0, 360, c1, -1, cv2.LINE_AA, sh)
        for dx in (-0.35, 0.35):
            cv2.fillPoly(
                img,
                [
                    P(
                        [
                            (cx + dx * r * 2.2, cy - r * 1.15),
                            (cx + dx * r * 0.9, cy - r * 0.4),
                            (cx + dx * r * 2.4, cy - r * 0.35),
                        ]
                    )
                ],
                c1,
                cv2.LINE_AA,
                sh,
            )
            circ(cx + dx * r, cy - r * 0.15, r * 0.22, (250, 250, 250))
            circ(cx + dx * r * 1.05, cy - r * 0.12, r * 0.11, (10, 10, 10))
        circ(cx, cy + r * 0.35, r * 0.14, c2)
    elif kind == "shield":
        pts = [
            (cx - r * 0.8, cy - r * 0.9),
            (cx + r * 0.8, cy - r * 0.9),
            (cx + r * 0.75, cy + r * 0.1),
            (cx, cy + r),
            (cx - r * 0.75, cy + r * 0.1),
        ]
        cv2.fillPoly(img, [P(pts)], c1, cv2.LINE_AA, sh)
        cv2.fillPoly(
            img,
            [
                P(
                    [
                        (cx - r * 0.1, cy - r * 0.9),
                        (cx + r * 0.1, cy - r * 0.9),
                        (cx + r * 0.1, cy + r * 0.9),
                        (cx - r * 0.1, cy + r * 0.9),
                    ]
                )
            ],
            c2,
            cv2.LINE_AA,
            sh,
        )
        cv2.polylines(img, [P(pts)], True, dark, max(1, int(r * 0.07)), cv2.LINE_AA, sh)
    elif kind == "key":
        circ(cx - r * 0.5, cy, r * 0.45, c1, r * 0.18)
        cv2.line(
            img,
            (int((cx - r * 0.1) * S), int(cy * S)),
            (int((cx + r) * S), int(cy * S)),
            c1,
            max(1, int(r * 0.22)),
            cv2.LINE_AA,
            sh,
        )
        for t in (0.55, 0.85):
            cv2.line(
                img,
                (int((cx + r * t) * S), int(cy * S)),
                (int((cx + r * t) * S), int((cy + r * 0.35) * S)),
                c1,
                max(1, int(r * 0.16)),
                cv2.LINE_AA,
                sh,
            )
    elif kind == "potion":
        circ(cx, cy + r * 0.25, r * 0.7, c1)
        cv2.rectangle(
            img,
            (int((cx - r * 0.2) * S), int((cy - r) * S)),
            (int((cx + r * 0.2) * S), int(cy * S)),
            c2,
            -1,
            cv2.LINE_AA,
            sh,
        )
        circ(cx - r * 0.25, cy + r * 0.05, r * 0.15, (245, 245, 245))
    elif kind == "moon":
        circ(cx, cy, r, c1)
        circ(cx + r * 0.45, cy - r * 0.25, r * 0.8, c2)
    elif kind == "flower":
        for i in range(int(rng.integers(5, 8))):
            a = 2 * np.pi * i / 6
            circ(cx + np.cos(a) * r * 0.55, cy + np.sin(a) * r * 0.55, r * 0.4, c1)
        circ(cx, cy, r * 0.35, c2)
    else:  # eye
        cv2.ellipse(
            img,
            (int(cx * S), int(cy * S)),
            (int(r * S), int(r * 0.55 * S)),
            0,
            0,
            360,
            (235, 235, 225),
            -1,
            cv2.LINE_AA,
            sh,
        )
        circ(cx, cy, r * 0.45, c1)
        circ(cx, cy, r * 0.2, dark)
