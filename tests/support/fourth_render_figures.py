"""Standing figures for the fourth renderer: pawns of several shapes, and cups.

A figure is a solid of revolution (chess pawn, cone-and-ball, wizard with a
brimmed hat, peg, cup) drawn as horizontal slices from the bottom up, each
slice projected through the real camera, so the figure is seen from the side
as much as the camera's tilt and offset allow. Each slice is shaded by the
key light (the rim that faces it is lit, up-facing slopes brighter); a meeple
is an extruded flat silhouette instead. Every figure drops a cast shadow on the
table (its slices pushed along the light onto ``Z = 0``) and a dark contact
spot. Figures are drawn in a 3x supersampled patch and shrunk, for clean edges.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tests.support.fourth_render_camera import Camera

SS = 3  # supersampling of figure patches

# Radius profiles (height, radius) in units of the figure's base radius / height.
PROFILES: dict[str, list[tuple[float, float]]] = {
    "chess": [
        (0, 1.0),
        (0.08, 1.0),
        (0.12, 0.8),
        (0.55, 0.42),
        (0.62, 0.62),
        (0.66, 0.45),
        (0.7, 0.5),
        (0.78, 0.6),
        (0.88, 0.52),
        (0.96, 0.3),
        (1.0, 0.0),
    ],
    "cone": [(0, 1.0), (0.06, 1.0), (0.6, 0.35), (0.64, 0.45), (0.72, 0.62), (0.84, 0.62), (0.93, 0.45), (1.0, 0.0)],
    "wizard": [
        (0, 1.0),
        (0.45, 0.6),
        (0.5, 0.55),
        (0.56, 0.45),
        (0.64, 0.45),
        (0.66, 0.95),
        (0.7, 0.95),
        (0.72, 0.5),
        (1.0, 0.0),
    ],
    "peg": [(0, 0.85), (0.7, 0.85), (0.8, 0.78), (0.9, 0.6), (0.97, 0.32), (1.0, 0.0)],
}


@dataclass(frozen=True)
class Light:
    """The key light: unit vector toward it (world), plus ambient and diffuse weights."""

    direction: np.ndarray
    ambient: float
    diffuse: float


def _patch_box(pts: np.ndarray, size: tuple[int, int], pad: int = 4) -> tuple[int, int, int, int] | None:
    x0, y0 = np.floor(pts.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + pad
    w, h = size
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return None
    return int(x0), int(y0), int(x1), int(y1)


class Layer:
    """Objects above the table: colour (before lighting, premultiplied by coverage), coverage, table shadows."""

    def __init__(self, size: tuple[int, int]) -> None:
        w, h = size
        self.size = size
        self.rgb = np.zeros((h, w, 3), np.float32)
        self.alpha = np.zeros((h, w), np.float32)
        self.shadow = np.zeros((h, w), np.float32)  # 0 = lit, 1 = fully in shadow (before blur)
        self.soft = np.zeros((h, w), np.float32)  # shadows of things held high: blurred more

    def composite(self, x0: int, y0: int, rgb: np.ndarray, alpha: np.ndarray, premultiplied: bool = False) -> None:
        """Put a patch over the layer at ``(x0, y0)``."""
        h, w = alpha.shape
        a = alpha[..., None]
        src = rgb if premultiplied else rgb * a
        self.rgb[y0 : y0 + h, x0 : x0 + w] = self.rgb[y0 : y0 + h, x0 : x0 + w] * (1 - a) + src
        self.alpha[y0 : y0 + h, x0 : x0 + w] = alpha + self.alpha[y0 : y0 + h, x0 : x0 + w] * (1 - alpha)

    def cast(self, polygon: np.ndarray, strength: float, soft: bool = False) -> None:
        """Add a shadow polygon (image px); overlapping shadows do not darken twice."""
        target = self.soft if soft else self.shadow
        w, h = self.size
        x0, y0 = np.clip(np.floor(polygon.min(0)).astype(int) - 1, 0, [w, h])
        x1, y1 = np.clip(np.ceil(polygon.max(0)).astype(int) + 1, 0, [w, h])
        if x1 <= x0 or y1 <= y0:
            return
        layer = np.zeros((y1 - y0, x1 - x0), np.float32)
        cv2.fillPoly(layer, [np.round((polygon - [x0, y0]) * 4).astype(np.int32)], float(strength), cv2.LINE_8, shift=2)
        np.maximum(target[y0:y1, x0:x1], layer, out=target[y0:y1, x0:x1])

    def merge(self, other: Layer) -> None:
        """Put ``other`` (drawn later, so nearer) over this layer."""
        a = other.alpha[..., None]
        self.rgb = self.rgb * (1 - a) + other.rgb  # colours are premultiplied by coverage
        self.alpha = other.alpha + self.alpha * (1 - other.alpha)
        np.maximum(self.shadow, other.shadow, out=self.shadow)
        np.maximum(self.soft, other.soft, out=self.soft)


def _circle(cx: float, cy: float, r: float, n: int = 20) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], 1)


def _cast_shadow(
    layer: Layer, cam: Camera, x: float, y: float, heights: np.ndarray, radii: np.ndarray, light: Light, strength: float
) -> None:
    d = light.direction
    push = -d[:2] / max(d[2], 0.2)  # ground offset per unit of height
    ground = np.concatenate(
        [_circle(x + push[0] * h, y + push[1] * h, r) for h, r in zip(heights, radii, strict=True) if r > 0]
    )
    hull = cv2.convexHull(ground.astype(np.float32)).reshape(-1, 2)
    img = cam.project(np.column_stack([hull, np.zeros(len(hull))]))
    layer.cast(img, strength)
    contact = cam.project(np.column_stack([_circle(x, y, radii[0] * 1.15), np.zeros(20)]))
    layer.cast(contact, min(0.9, strength + 0.25))


def _composite_supersampled(
    layer: Layer, x0: int, y0: int, x1: int, y1: int, rgb_patch: np.ndarray, alpha: np.ndarray
) -> None:
    """Shrink a figure drawn at SS x resolution to its box and lay it on the layer (anti-aliased edges)."""
    small = (x1 - x0, y1 - y0)
    layer.composite(
        x0,
        y0,
        cv2.resize(rgb_patch, small, interpolation=cv2.INTER_AREA),
        cv2.resize(alpha, small, interpolation=cv2.INTER_AREA),
        premultiplied=True,
    )


def draw_revolution(
    layer: Layer,
    cam: Camera,
    x: float,
    y: float,
    profile: list[tuple[float, float]],
    radius: float,
    height: float,
    rgb: tuple[float, float, float],
    light: Light,
    shadow: float,
    top_rgb: tuple[float, float, float] | None = None,
) -> None:
    """A solid of revolution standing at table point ``(x, y)``; ``top_rgb`` fills an open top (a cup)."""
    hs = np.array([p[0] for p in profile]) * height
    rs = np.array([p[1] for p in profile]) * radius
    _cast_shadow(layer, cam, x, y, hs[::2], rs[::2], light, shadow)
    outline = np.concatenate(
        [cam.project(np.column_stack([_circle(x, y, r + 1e-3), np.full(20, h)])) for h, r in zip(hs, rs, strict=True)]
    )
    box = _patch_box(outline, layer.size)
    if box is None:
        return
    x0, y0, x1, y1 = box
    pw, ph = (x1 - x0) * SS, (y1 - y0) * SS
    rgb_patch = np.zeros((ph, pw, 3), np.float32)
    alpha = np.zeros((ph, pw), np.float32)
    base_px = cam.project(np.array([x, y, 0.0]))
    top_px = cam.project(np.array([x, y, height]))
    n = int(np.clip(np.linalg.norm(top_px - base_px) * SS / 1.5, 24, 240))
    n = max(n, int(height / radius * 12))
    d = light.direction
    ld_img = cam.project(np.array([x + d[0] * 0.2, y + d[1] * 0.2, 0])) - base_px
    ld_img = ld_img / (np.linalg.norm(ld_img) + 1e-6)
    sin_el = d[2]
    cos_el = float(np.hypot(d[0], d[1]))
    col = np.array(rgb, np.float32)
    hgrid = np.linspace(0, height, n)
    rgrid = np.interp(hgrid, hs, rs)
    slope = np.gradient(rgrid, hgrid)
    for h, r, s in zip(hgrid, rgrid, slope, strict=True):
        if r <= 0:
            continue
        c = (cam.project(np.array([x, y, h])) - [x0, y0]) * SS
        rim = cam.project(np.array([x + r, y, h])) - cam.project(np.array([x, y, h]))
        rpx = float(np.linalg.norm(rim)) * SS
        norm = np.hypot(1.0, s)
        up, side = -s / norm, 1.0 / norm
        dark = col * (light.ambient + light.diffuse * max(0.0, up * sin_el))
        lit = col * (light.ambient + light.diffuse * max(0.0, up * sin_el + side * cos_el))
        mid = 0.5 * (dark + lit)
        for frac, off, colour in ((1.0, 0.0, dark), (0.8, 0.2, mid), (0.5, 0.45, lit)):
            cc = c + ld_img * off * rpx
            cv2.circle(
                rgb_patch,
                (int(cc[0] * 4), int(cc[1] * 4)),
                max(1, int(rpx * frac * 4)),
                tuple(float(v) for v in colour),
                -1,
                cv2.LINE_8,
                shift=2,
            )
        cv2.circle(alpha, (int(c[0] * 4), int(c[1] * 4)), max(1, int(rpx * 4)), 1.0, -1, cv2.LINE_8, shift=2)
    if top_rgb is not None:
        c = (cam.project(np.array([x, y, height])) - [x0, y0]) * SS
        rpx = (
            float(
                np.linalg.norm(
                    cam.project(np.array([x + rs[-1] * 0.88, y, height])) - cam.project(np.array([x, y, height]))
                )
            )
            * SS
        )
        cv2.circle(rgb_patch, (int(c[0] * 4), int(c[1] * 4)), max(1, int(rpx * 4)), top_rgb, -1, cv2.LINE_8, shift=2)
    else:  # a small specular glint near the top, toward the light
        top = n - 1 - int(n * 0.12)
        c = (cam.project(np.array([x, y, hgrid[top]])) - [x0, y0]) * SS
        rpx = (
            float(
                np.linalg.norm(
                    cam.project(np.array([x + rgrid[top], y, hgrid[top]])) - cam.project(np.array([x, y, hgrid[top]]))
                )
            )
            * SS
        )
        g = c + ld_img * 0.5 * rpx
        glint = np.clip(col * 0.4 + 0.65, 0, 1)
        cv2.circle(
            rgb_patch,
            (int(g[0] * 4), int(g[1] * 4)),
            max(1, int(rpx * 0.18 * 4)),
            tuple(float(v) for v in glint),
            -1,
            cv2.LINE_8,
            shift=2,
        )
    _composite_supersampled(layer, x0, y0, x1, y1, rgb_patch, alpha)


_MEEPLE = np.array(
    [
        [-1.0, 0],
        [-0.35, 0.45],
        [-1.0, 0.5],
        [-0.85, 0.68],
        [-0.3, 0.68],
        [-0.4, 0.85],
        [-0.25, 1.0],
        [0.25, 1.0],
        [0.4, 0.85],
        [0.3, 0.68],
        [0.85, 0.68],
        [1.0, 0.5],
        [0.35, 0.45],
        [1.0, 0],
    ],
)  # (across, up): a meeple's flat silhouette


def draw_meeple(
    layer: Layer,
    cam: Camera,
    x: float,
    y: float,
    yaw: float,
    radius: float,
    height: float,
    rgb: tuple[float, float, float],
    light: Light,
    shadow: float,
) -> None:
    """A meeple: its silhouette extruded ``radius`` deep, facing ``yaw`` (radians)."""
    across = np.array([np.cos(yaw), np.sin(yaw), 0.0])
    facing = np.array([-np.sin(yaw), np.cos(yaw), 0.0])
    thick = radius * 0.9
    heights = np.linspace(0, height, 6)
    _cast_shadow(layer, cam, x, y, heights, np.full(6, radius * 0.8), light, shadow)
    col = np.array(rgb, np.float32)
    outline = (
        np.array([x, y, 0.0]) + np.outer(_MEEPLE[:, 0] * radius, across) + np.outer(_MEEPLE[:, 1] * height, [0, 0, 1.0])
    )
    caps = [outline + facing * thick / 2, outline - facing * thick / 2]  # the two flat faces
    caps.sort(key=lambda cap: -float(cam.depth(cap).mean()))  # far face first
    near_normal = facing if float(cam.depth(caps[1]).mean()) < float(cam.depth(outline).mean()) else -facing
    faces: list[tuple[np.ndarray, float]] = [(caps[0], 0.0)]
    n = len(outline)
    for j in range(n):  # the side walls between the faces, each lit by its own normal
        a, b = outline[j], outline[(j + 1) % n]
        quad = np.array(
            [a + facing * thick / 2, b + facing * thick / 2, b - facing * thick / 2, a - facing * thick / 2]
        )
        normal = np.cross(b - a, facing)
        normal = normal / (np.linalg.norm(normal) + 1e-9)
        if float(normal @ (outline.mean(0) - (a + b) / 2)) > 0:
            normal = -normal  # point outward
        faces.append((quad, max(0.0, float(normal @ light.direction))))
    side_faces = sorted(faces[1:], key=lambda f: -float(cam.depth(f[0]).mean()))
    faces = [faces[0], *side_faces, (caps[1], max(0.0, float(near_normal @ light.direction)))]
    polys = [cam.project(face) for face, _ in faces]
    box = _patch_box(np.concatenate(polys), layer.size)
    if box is None:
        return
    x0, y0, x1, y1 = box
    rgb_patch = np.zeros(((y1 - y0) * SS, (x1 - x0) * SS, 3), np.float32)
    alpha = np.zeros(rgb_patch.shape[:2], np.float32)
    for poly, (_, lit) in zip(polys, faces, strict=True):
        pts = np.round((poly - [x0, y0]) * SS * 4).astype(np.int32)
        colour = col * (light.ambient + light.diffuse * lit)
        cv2.fillPoly(rgb_patch, [pts], tuple(float(v) for v in colour), cv2.LINE_8, shift=2)
        cv2.fillPoly(alpha, [pts], 1.0, cv2.LINE_8, shift=2)
    edge = np.round((polys[-1] - [x0, y0]) * SS * 4).astype(np.int32)
    cv2.polylines(rgb_patch, [edge], True, tuple(float(v) * 0.35 for v in col), max(1, SS), cv2.LINE_8, shift=2)
    _composite_supersampled(layer, x0, y0, x1, y1, rgb_patch, alpha)
