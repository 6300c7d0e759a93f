"""The Raspberry Pi camera through picamera2 (imported lazily, when the camera opens).

picamera2 comes from apt (``sudo apt install python3-picamera2``); a virtual
environment must be created with ``--system-site-packages`` to see it. It is
never imported at module import, so this module loads on any machine.

What it does, in order:

1. ``Picamera2(camera_num)`` after checking ``global_camera_info()`` lists
   a camera (a missing or unplugged camera is :class:`CameraUnavailable`,
   retried with back-off by the base class);
2. a video configuration with an ``RGB888`` main stream (picamera2's
   ``RGB888`` is laid out B, G, R in memory: OpenCV's BGR, no conversion),
   then the fixed ``controls`` from config if any (for instance
   ``{"AfMode": 0, "LensPosition": 2.0}`` holds a Camera Module 3's focus at
   0.5 m);
3. day mode: frame duration limits for day, auto exposure and auto white
   balance on; read the metadata of up to ``settle_frames`` frames until
   ``ExposureTime``, ``AnalogueGain`` and ``ColourGains`` stop moving; then
   lock them: ``AeEnable``/``AwbEnable`` False with those exact values, so
   frame differences mean the board changed, not the exposure (DESIGN.md §3);
4. night mode: auto exposure off, first ``FrameDurationLimits`` (a long
   frame allows a long exposure), then ``ExposureTime`` and
   ``AnalogueGain``; white balance stays locked at the day gains;
5. each frame: ``capture_request`` then ``make_array("main")`` and
   ``release()`` in a ``finally`` (an unreleased request stalls the camera);
   a frame not arriving within ``timeout_s`` is a timeout (camera lost).
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from hardware.camera import Camera, CameraError, CameraUnavailable

INSTALL_HINT = (
    "picamera2 is not installed: on Raspberry Pi OS run 'sudo apt install python3-picamera2' "
    "(if the project runs in a virtual environment, create it with 'python3 -m venv --system-site-packages')"
)

#: Errors picamera2/libcamera raise when the camera goes away or stops delivering.
_LOSS_ERRORS = (RuntimeError, TimeoutError, OSError, IndexError)


def _changed(a: Any, b: Any, tolerance: float) -> bool:
    if a is None or b is None:
        return True
    if isinstance(a, (tuple, list)):
        return any(_changed(x, y, tolerance) for x, y in zip(a, b, strict=False))
    return abs(float(a) - float(b)) > tolerance * max(abs(float(a)), abs(float(b)), 1e-9)


class Picamera2Camera(Camera):
    """The Pi camera (any libcamera sensor) through picamera2."""

    backend = "picamera2"

    def __init__(
        self,
        camera_num: int = 0,
        *,
        size: tuple[int, int] = (1640, 1232),
        day_frame_us: tuple[int, int] = (33_333, 100_000),
        night_frame_us: int = 500_000,
        night_exposure_us: int = 450_000,
        night_gain: float = 8.0,
        settle_frames: int = 30,
        stable_frames: int = 3,
        tolerance: float = 0.02,
        timeout_s: float = 5.0,
        controls: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.controls = dict(controls or {})
        if night_exposure_us > night_frame_us:
            raise CameraError(
                f"night exposure {night_exposure_us} µs does not fit in the night frame time {night_frame_us} µs"
            )
        self.camera_num = camera_num
        self.size = (int(size[0]), int(size[1]))
        self.day_frame_us = (int(day_frame_us[0]), int(day_frame_us[1]))
        self.night_frame_us = int(night_frame_us)
        self.night_exposure_us = int(night_exposure_us)
        self.night_gain = float(night_gain)
        self.settle_frames = settle_frames
        self.stable_frames = stable_frames
        self.tolerance = tolerance
        self.timeout_s = timeout_s
        self.locked: dict[str, Any] = {}
        self._cam: Any = None

    def describe(self) -> str:
        return f"Pi camera {self.camera_num}"

    # ---- lifecycle

    def _open(self) -> None:
        try:
            module = importlib.import_module("picamera2")
        except ImportError:
            raise CameraError(INSTALL_HINT) from None
        picamera2_class = module.Picamera2
        try:
            cameras = picamera2_class.global_camera_info()
        except _LOSS_ERRORS as exc:
            raise CameraUnavailable(f"cannot list cameras: {exc}") from None
        if len(cameras) <= self.camera_num:
            raise CameraUnavailable(
                f"no camera {self.camera_num} detected ({len(cameras)} found): check the ribbon cable and "
                "'rpicam-hello --list-cameras'"
            )
        try:
            cam = picamera2_class(self.camera_num)
        except _LOSS_ERRORS as exc:
            raise CameraUnavailable(f"cannot open camera {self.camera_num}: {exc}") from None
        self._cam = cam
        try:
            config = cam.create_video_configuration(
                main={"format": "RGB888", "size": self.size},
                controls={"FrameDurationLimits": self.day_frame_us},
            )
            cam.configure(config)
            cam.start()
            if self.controls:  # fixed extras, e.g. {"AfMode": 0, "LensPosition": 2.0} to hold the focus
                cam.set_controls(dict(self.controls))
        except _LOSS_ERRORS as exc:
            raise CameraUnavailable(f"cannot start camera {self.camera_num}: {exc}") from None

    def _close(self) -> None:
        cam, self._cam = self._cam, None
        if cam is None:
            return
        for step in ("stop", "close"):
            with contextlib.suppress(*_LOSS_ERRORS):  # the device may already be gone
                getattr(cam, step)()

    # ---- exposure

    def _apply_mode(self, mode: str) -> None:
        cam = self._cam
        try:
            if mode == "night":
                cam.set_controls({"AeEnable": False, "AwbEnable": False, "FrameDurationLimits": (
                    self.night_frame_us, self.night_frame_us)})  # fmt: skip
                cam.set_controls({"ExposureTime": self.night_exposure_us, "AnalogueGain": self.night_gain})
                return
            cam.set_controls({"FrameDurationLimits": self.day_frame_us, "AeEnable": True, "AwbEnable": True})
            metadata = self._settle()
            self.locked = {
                "ExposureTime": int(metadata["ExposureTime"]),
                "AnalogueGain": float(metadata["AnalogueGain"]),
                "ColourGains": tuple(float(g) for g in metadata["ColourGains"]),
            }
            cam.set_controls({"AeEnable": False, "AwbEnable": False, **self.locked})
        except _LOSS_ERRORS as exc:
            raise CameraUnavailable(f"camera {self.camera_num} stopped while setting {mode} exposure: {exc}") from None
        except (KeyError, TypeError) as exc:
            raise CameraUnavailable(f"camera {self.camera_num} gave no exposure metadata ({exc})") from None

    def _settle(self) -> Mapping[str, Any]:
        """Metadata once exposure and white balance have stopped moving (or after ``settle_frames``)."""
        keys = ("ExposureTime", "AnalogueGain", "ColourGains")
        previous: Mapping[str, Any] | None = None
        steady = 0
        metadata: Mapping[str, Any] = {}
        for _ in range(self.settle_frames):
            metadata = self._cam.capture_metadata()
            if previous is not None and not any(
                _changed(metadata.get(k), previous.get(k), self.tolerance) for k in keys
            ):
                steady += 1
                if steady >= self.stable_frames:
                    break
            else:
                steady = 0
            previous = metadata
        return metadata

    # ---- frames

    def _read(self) -> np.ndarray:
        cam = self._cam
        try:
            if hasattr(cam, "wait"):
                request = cam.wait(cam.capture_request(wait=False), timeout=self.timeout_s)
            else:  # older picamera2: blocking call without a timeout
                request = cam.capture_request()
        except _LOSS_ERRORS as exc:
            raise CameraUnavailable(f"camera {self.camera_num} gave no frame: {exc or type(exc).__name__}") from None
        try:
            return request.make_array("main")
        except _LOSS_ERRORS as exc:
            raise CameraUnavailable(f"camera {self.camera_num} frame unreadable: {exc}") from None
        finally:
            request.release()


__all__ = ["INSTALL_HINT", "Picamera2Camera"]
