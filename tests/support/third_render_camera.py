"""Third held-out renderer: pinhole camera, light field, lens and sensor.

The camera is a real pinhole looking down at the table (world ``Z`` points into the
table, see ``third_render_scene``). Images are composed in linear light on an
undistorted canvas a little larger than the photo; mild barrel distortion then maps
the canvas onto the photo, and the sensor adds vignetting, blur, noise and JPEG.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

BOARD_CENTRE = np.array([3.5, 3.5, 0.0])


@dataclass
class Camera:
    K: np.ndarray  # 3x3, canvas pixels
    R: np.ndarray  # world -> camera rotation
    C: np.ndarray  # camera centre (world)
    width: int  # photo size
    height: int
    margin: int  # canvas = photo + margin on every side
    barrel: float  # r_u = r_d * (1 + barrel * (r_d / half_diag)^2)

    @property
    def canvas_size(self) -> tuple[int, int]:
        return self.width + 2 * self.margin, self.height + 2 * self.margin

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World points (N,3) -> undistorted canvas pixels (N,2)."""
        cam = (np.asarray(pts, float) - self.C) @ self.R.T
        uv = cam @ self.K.T
        return uv[:, :2] / uv[:, 2:3]

    def plane_homography(self) -> np.ndarray:
        """3x3 map from board-plane (X, Y, 1) to canvas pixels."""
        t = -self.R @ self.C
        return self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], t])

    def rays(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Unit world directions of the canvas pixels (u, v)."""
        pix = np.stack([u, v, np.ones_like(u)], -1)
        d = pix @ np.linalg.inv(self.K).T @ self.R
        return d / np.linalg.norm(d, axis=-1, keepdims=True)

    def half_diag(self) -> float:
        return 0.5 * float(np.hypot(self.width, self.height))

    def distort(self, uv: np.ndarray) -> np.ndarray:
        """Undistorted canvas pixels -> photo pixels."""
        cx, cy = self.K[0, 2], self.K[1, 2]
        d = np.asarray(uv, float) - (cx, cy)
        ru = np.hypot(d[:, 0], d[:, 1]) / self.half_diag()
        rd = ru.copy()
        for _ in range(20):  # solve ru = rd (1 + k rd^2)
            rd = rd - (rd * (1 + self.barrel * rd**2) - ru) / (1 + 3 * self.barrel * rd**2)
        scale = np.where(ru > 1e-9, rd / np.maximum(ru, 1e-9), 1.0)
        out = d * scale[:, None] + (cx, cy)
        return out - self.margin


def _look_at(C: np.ndarray, target: np.ndarray, down_hint: np.ndarray) -> np.ndarray:
    z = target - C
    z /= np.linalg.norm(z)
    y = down_hint - z * (down_hint @ z)
    y /= np.linalg.norm(y)
    x = np.cross(y, z)
    return np.stack([x, y, z])


def build_camera(params: dict, width: int, height: int, frame_width: float) -> Camera:
    tilt, az, roll, dist = params["tilt"], params["azimuth"], params["roll"], params["distance"]
    margin = int(np.ceil(0.5 * np.hypot(width, height) * params["barrel"] * 1.05)) + 4
    cw, ch = width + 2 * margin, height + 2 * margin
    cx, cy = cw / 2.0, ch / 2.0
    down = np.array([-np.sin(roll), np.cos(roll), 0.0])  # image "down" on the table: toward row 6, turned by roll
    offset_dir = np.array([np.cos(az), np.sin(az), 0.0])
    corners = np.array([[0, 0, 0], [7, 0, 0], [7, 7, 0], [0, 7, 0]], float)
    fw = frame_width
    outer = np.array([[-fw, -fw, 0], [7 + fw, -fw, 0], [7 + fw, 7 + fw, 0], [-fw, 7 + fw, 0]], float)

    def make(target: np.ndarray, f: float) -> Camera:
        C = target + dist * (np.sin(tilt) * offset_dir + np.array([0, 0, -np.cos(tilt)]))
        R = _look_at(C, target, down)
        K = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
        return Camera(K, R, C, width, height, margin, params["barrel"])

    target = BOARD_CENTRE.copy()
    cam = make(target, 1000.0)
    uv = cam.project(corners)
    side = np.mean([np.linalg.norm(uv[i] - uv[(i + 1) % 4]) for i in range(4)])
    short = min(width, height)
    f = 1000.0 * params["coverage"] * short / side
    # shrink until the tile area (with a margin) fits the photo whatever the rotation
    for _ in range(30):
        cam = make(target, f)
        uv = cam.project(corners)
        span = uv.max(0) - uv.min(0)
        if span[0] <= 0.94 * width and span[1] <= 0.94 * height:
            break
        f *= 0.96
    # place the board somewhere in the photo: move the aim point, not the sensor
    uv = cam.project(corners)
    span = uv.max(0) - uv.min(0)
    room = np.maximum(np.array([0.96 * width, 0.96 * height]) - span, 0) / 2
    ob = cam.project(outer)
    ospan = ob.max(0) - ob.min(0)
    oroom = np.maximum(np.array([width, height]) - ospan, 0) / 2
    room = np.where(oroom > 0, np.minimum(room, oroom), room)  # keep the frame in view when it fits
    want = np.array([cx, cy]) + np.array(params["place"]) * room * 0.9
    for _ in range(4):
        uv = cam.project(corners)
        got = (uv.max(0) + uv.min(0)) / 2
        aim = np.array([cx, cy]) + (got - want)
        Hinv = np.linalg.inv(cam.plane_homography())
        w = Hinv @ np.array([aim[0], aim[1], 1.0])
        target = np.array([w[0] / w[2], w[1] / w[2], 0.0])
        cam = make(target, f)
    return cam


# --------------------------------------------------------------------------- light


def plane_points(cam: Camera, step: int = 8) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """World (X, Y) of a coarse lattice of canvas pixels (every ``step`` pixels)."""
    cw, ch = cam.canvas_size
    gw, gh = cw // step + 2, ch // step + 2
    u, v = np.meshgrid(np.arange(gw) * step, np.arange(gh) * step)
    Hinv = np.linalg.inv(cam.plane_homography())
    p = np.stack([u, v, np.ones_like(u)], -1).reshape(-1, 3).astype(float) @ Hinv.T
    xy = p[:, :2] / p[:, 2:3]
    return xy[:, 0].reshape(gh, gw), xy[:, 1].reshape(gh, gw), (gw, gh)


def irradiance(lights, ambient: float, X: np.ndarray, Y: np.ndarray, shade: np.ndarray | None = None) -> np.ndarray:
    """Linear BGR light on the table plane at world points; ``shade`` dims the first light."""
    out = np.zeros((*X.shape, 3), np.float32) + ambient
    for i, L in enumerate(lights):
        lx, ly, lz = L.pos
        dx, dy, h = lx - X, ly - Y, -lz
        d2 = dx * dx + dy * dy + h * h
        e = L.power * h / d2**1.5 * (h * h)  # cosine law over inverse square, 1 right under the light
        if i == 0 and shade is not None:
            e = e * shade
        out += e[..., None] * np.array(L.rgb, np.float32)
    return out


def glare(cam: Camera, light, size: float, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Mirror reflection of the main lamp in the glossy board print (a soft blob)."""
    lx, ly, lz = light.pos
    cx, cy, cz = cam.C
    t = -cz / (-cz - lz)  # where the line from the camera to the mirrored lamp meets the table
    px, py = cx + (lx - cx) * t, cy + (ly - cy) * t
    d2 = (X - px) ** 2 + (Y - py) ** 2
    return np.exp(-d2 / (2 * size * size)).astype(np.float32)


def caster_shade(caster: dict | None, X: np.ndarray, Y: np.ndarray) -> np.ndarray | None:
    """Soft shadow of an object outside the photo (a shelf edge, a lamp arm, a head)."""
    if caster is None:
        return None
    a = caster["angle"]
    nx, ny = np.cos(a), np.sin(a)
    s = (X - 3.5) * nx + (Y - 3.5) * ny  # signed distance along the caster's direction
    edge = 3.5 + 1.5 - caster["depth"] * 1.4
    soft = caster["soft"] * 1.5 + 0.05
    if caster["kind"] == "edge":
        m = 1 / (1 + np.exp(-(s - edge) / soft))
    elif caster["kind"] == "bar":
        t = -(X - 3.5) * ny + (Y - 3.5) * nx
        m = 1 / (1 + np.exp(-(s - edge) / soft)) * (1 / (1 + np.exp((np.abs(t) - 1.2 - caster["depth"]) / soft)))
        m = np.maximum(m, 1 / (1 + np.exp((np.abs(t - 2) - 0.5) / soft)) * (s > edge - 2))
    else:
        t = -(X - 3.5) * ny + (Y - 3.5) * nx
        r = np.hypot(s - edge - 1.0, t * 0.7)
        m = 1 / (1 + np.exp((r - 1.2 - caster["depth"] * 0.6) / soft))
    return (1 - caster["strength"] * m).astype(np.float32)


# --------------------------------------------------------------------------- lens and sensor


def lens_and_sensor(canvas: np.ndarray, cam: Camera, post: dict, rng: np.random.Generator, night: bool) -> np.ndarray:
    """Linear-light canvas -> 8-bit RGB photo (exposure, vignette, gamma, distortion, blur, noise)."""
    w, h = cam.width, cam.height
    cw, ch = cam.canvas_size
    if night:  # the camera's auto exposure lifts the dark room
        level = float(np.percentile(canvas[::4, ::4].max(-1), 99.5))
        gain = min(0.55 / max(level, 1e-4), 40.0)
    else:
        level = float(np.percentile(canvas[::4, ::4].mean(-1), 90))
        gain = post["exposure"] * 0.82 / max(level, 1e-4)
    sy, sx = np.ogrid[: ch // 8 + 1, : cw // 8 + 1]
    r2 = ((sx * 8 - cam.K[0, 2]) ** 2 + (sy * 8 - cam.K[1, 2]) ** 2) / (0.25 * (w * w + h * h))
    vig = cv2.resize(((1 - post["vignette"] * r2) * gain).astype(np.float32), (cw, ch), interpolation=cv2.INTER_LINEAR)
    canvas *= vig[..., None] * np.asarray(post["wb"], np.float32)
    img = cv2.pow(cv2.max(canvas, 0.0), 1 / (2.2 * post["gamma"]))
    img = cv2.convertScaleAbs(img, alpha=255.0)
    if cam.barrel > 0:
        u, v = np.meshgrid(np.arange(w, dtype=np.float32) + cam.margin, np.arange(h, dtype=np.float32) + cam.margin)
        cx, cy = cam.K[0, 2], cam.K[1, 2]
        dx, dy = u - cx, v - cy
        s = 1 + cam.barrel * (dx * dx + dy * dy) / np.float32(cam.half_diag() ** 2)
        img = cv2.remap(img, (cx + dx * s).astype(np.float32), (cy + dy * s).astype(np.float32), cv2.INTER_LINEAR)
    else:
        m = cam.margin
        img = img[m : m + h, m : m + w]
    if post["blur"] > 0.25:
        img = cv2.GaussianBlur(img, (0, 0), post["blur"])
    grey = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_RGB2GRAY), cv2.COLOR_GRAY2RGB)
    img = cv2.addWeighted(img, post["saturation"], grey, 1 - post["saturation"], 0)
    cv2.setRNGSeed(int(rng.integers(2**31)))
    noise = np.empty((h, w, 3), np.int16)
    sd = post["noise"] * 255 * (1.3 if night else 1.0)
    cv2.randn(noise, 0, sd)
    out = img.astype(np.int16)
    out += noise
    if night:  # chroma noise in blotches
        small = np.empty((h // 3 + 1, w // 3 + 1, 3), np.float32)
        cv2.randn(small, 0.0, sd * 0.8)
        out += cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.int16)
    return np.clip(out, 0, 255).astype(np.uint8)
