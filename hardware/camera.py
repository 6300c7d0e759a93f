"""Cameras: one interface, several sources, and recovery from camera loss.

Every camera gives BGR ``numpy`` frames (OpenCV's order) through:

- :meth:`Camera.capture` — one frame now;
- :meth:`Camera.frames` — frames until the source ends or the camera is closed;
- :meth:`Camera.set_mode` — ``"day"`` or ``"night"`` (exposure for the glow phase);
- :meth:`Camera.close` — idempotent; cameras are context managers.

Backends: ``picamera2`` (:mod:`hardware.picam`), ``opencv`` (USB camera or
video file, here), ``folder`` (recorded photos or a recorded game, here) and
``sim`` (rendered frames of a simulated game, :mod:`hardware.sim_camera`).
:func:`open_camera` picks one from config; it never falls back to the
simulator on its own.

Camera loss — an unplugged cable, a timeout, a failed read — raises
:class:`CameraUnavailable` inside a backend. The base class reports it (log,
:attr:`Camera.status`, an optional callback), closes the driver, waits with
exponential back-off (injectable ``sleep``) and reopens. :meth:`frames`
retries for ever, so a service survives a camera that comes back;
:meth:`capture` gives up after ``capture_attempts`` with the last error.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import CompanionError, ConfigError

log = logging.getLogger(__name__)

MODES = ("day", "night")
IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png")


class CameraError(CompanionError, RuntimeError):
    """The camera cannot be used: missing driver, bad source, closed camera. Not retried."""


class CameraUnavailable(CameraError):
    """The camera is (perhaps only for now) gone: unplugged, timed out, a read failed. Retried."""


class EndOfFrames(CameraError):
    """A finite source (a folder, a video file) has no more frames."""


@dataclass(frozen=True)
class Backoff:
    """Waits between reconnection attempts: ``initial_s * factor**k``, at most ``max_s``."""

    initial_s: float = 0.5
    factor: float = 2.0
    max_s: float = 10.0
    capture_attempts: int = 5

    def delay(self, attempt: int) -> float:
        return min(self.initial_s * self.factor**attempt, self.max_s)


class Camera:
    """Base class: the recovery loop, mode and lifecycle; backends fill in the ``_`` methods.

    ``_open()`` acquires the device (raising :class:`CameraUnavailable` when
    it is absent for now, :class:`CameraError` when it can never work),
    ``_read()`` returns one BGR frame, ``_apply_mode(mode)`` sets exposure,
    ``_close()`` releases the device (must not raise).
    """

    backend = "abstract"

    def __init__(
        self,
        *,
        backoff: Backoff | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        on_status: Callable[[str, str | None], None] | None = None,
    ) -> None:
        self.backoff = backoff or Backoff()
        self._sleep = sleep
        self._clock = clock
        self._on_status = on_status
        self.mode = "day"
        self.status = "idle"  # idle, ok, lost, ended, closed
        self.last_error: str | None = None
        self.failures = 0  # consecutive failures
        self.frames_read = 0
        self.closed = False
        self._open_now = False

    # ---- the interface

    def capture(self) -> np.ndarray:
        """One BGR frame; retries a lost camera ``backoff.capture_attempts`` times, then raises."""
        return self._capture(self.backoff.capture_attempts)

    def frames(self) -> Iterator[np.ndarray]:
        """BGR frames until the source ends or the camera is closed; a lost camera is retried for ever."""
        while not self.closed:
            try:
                yield self._capture(None)
            except EndOfFrames:
                return
            except CameraError:
                if self.closed:
                    return
                raise

    def set_mode(self, mode: str) -> None:
        """``"day"`` (auto exposure, then locked) or ``"night"`` (long exposure, high gain)."""
        if mode not in MODES:
            raise ConfigError(f"camera mode {mode!r} must be 'day' or 'night'")
        if self.closed:
            raise CameraError(f"{self.backend} camera is closed")
        self.mode = mode
        if self._open_now:
            try:
                self._apply_mode(mode)
            except CameraUnavailable as exc:
                self._lost(exc)  # applied again when the camera comes back

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._release()
        self._set_status("closed", None)

    def __enter__(self) -> Camera:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[np.ndarray]:
        return self.frames()

    def __repr__(self) -> str:
        extra = f", last error: {self.last_error}" if self.status == "lost" and self.last_error else ""
        return (
            f"<{type(self).__name__} {self.describe()}: {self.status}, {self.mode} mode, "
            f"{self.frames_read} frames{extra}>"
        )

    def describe(self) -> str:
        """The source, for messages and ``repr``."""
        return self.backend

    # ---- recovery

    def _capture(self, attempts: int | None) -> np.ndarray:
        if self.closed:
            raise CameraError(f"{self.backend} camera is closed")
        attempt = 0
        while True:
            try:
                if not self._open_now:
                    self._open()
                    self._open_now = True
                    self._apply_mode(self.mode)
                frame = self._read()
            except EndOfFrames:
                self._set_status("ended", None)
                raise
            except CameraUnavailable as exc:
                self._lost(exc)
                attempt += 1
                if attempts is not None and attempt >= attempts:
                    raise CameraUnavailable(
                        f"{self.describe()}: no frame after {attempt} attempts: {exc}"
                    ) from None
                self._sleep(self.backoff.delay(attempt - 1))
                if self.closed:
                    raise CameraError(f"{self.backend} camera is closed") from None
                continue
            if self.status != "ok":
                if self.failures:
                    log.info("camera %s is back after %d failed attempts", self.describe(), self.failures)
                self.failures = 0
                self._set_status("ok", None)
            self.frames_read += 1
            return frame

    def _lost(self, exc: BaseException) -> None:
        self.failures += 1
        log.warning("camera %s lost (attempt %d): %s", self.describe(), self.failures, exc)
        self._release()
        self._set_status("lost", str(exc))

    def _release(self) -> None:
        if self._open_now:
            self._open_now = False
            self._close()

    def _set_status(self, status: str, error: str | None) -> None:
        changed = status != self.status or (error and error != self.last_error)
        self.status = status
        if error is not None:
            self.last_error = error
        if changed and self._on_status is not None:
            self._on_status(status, error)

    # ---- for backends

    def _open(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _read(self) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _apply_mode(self, mode: str) -> None:
        """Default: the source has no exposure to set (recorded frames)."""

    def _close(self) -> None:
        """Default: nothing to release."""


# --------------------------------------------------------------------------- OpenCV: USB camera or video file


def _parse_source(source: int | str | Path) -> int | str:
    if isinstance(source, int):
        return source
    text = str(source)
    return int(text) if text.isdigit() else text


class OpenCVCamera(Camera):
    """A USB camera (index) or a video file through ``cv2.VideoCapture``.

    A device that stops delivering frames is lost (retried); a video file
    ends (``loop=True`` starts it again). Exposure uses the V4L2 meanings of
    OpenCV's properties (``CAP_PROP_AUTO_EXPOSURE`` 0.75 = auto, 0.25 =
    manual): day runs auto for ``settle_frames`` then locks exposure and white
    balance; night sets ``night_exposure`` and ``night_gain``. Drivers that
    ignore these keep their own exposure. ``capture_factory`` lets tests pass a
    fake ``VideoCapture``.
    """

    backend = "opencv"

    def __init__(
        self,
        source: int | str | Path = 0,
        *,
        size: tuple[int, int] | None = None,
        loop: bool = False,
        settle_frames: int = 15,
        night_exposure: float = -4.0,
        night_gain: float = 100.0,
        capture_factory: Callable[[Any], Any] = cv2.VideoCapture,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.source = _parse_source(source)
        self.is_device = isinstance(self.source, int)
        if not self.is_device and not Path(str(self.source)).exists():
            raise CameraError(f"video file {str(self.source)!r} not found")
        self.size = size
        self.loop = loop
        self.settle_frames = settle_frames
        self.night_exposure = night_exposure
        self.night_gain = night_gain
        self._factory = capture_factory
        self._cap: Any = None

    def describe(self) -> str:
        return f"USB camera {self.source}" if self.is_device else f"video {Path(str(self.source)).name}"

    def _open(self) -> None:
        cap = self._factory(self.source)
        if not cap.isOpened():
            cap.release()
            if self.is_device:
                raise CameraUnavailable(
                    f"cannot open USB camera {self.source} (unplugged? in use? is the user in the 'video' group?)"
                )
            raise CameraError(f"cannot decode video file {str(self.source)!r}")
        if self.size is not None and self.is_device:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._cap = cap

    def _read(self) -> np.ndarray:
        ok, frame = self._cap.read()
        if ok and frame is not None:
            return frame
        if self.is_device:
            raise CameraUnavailable(f"USB camera {self.source} returned no frame (unplugged?)")
        if self.loop and self.frames_read:
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._cap.read()
            if ok and frame is not None:
                return frame
        raise EndOfFrames(f"video {str(self.source)!r} has no more frames")

    def _apply_mode(self, mode: str) -> None:
        if not self.is_device or self._cap is None:
            return
        cap = self._cap
        if mode == "night":
            cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 0.25)
            cap.set(cv2.CAP_PROP_EXPOSURE, self.night_exposure)
            cap.set(cv2.CAP_PROP_GAIN, self.night_gain)
            return
        cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 0.75)
        cap.set(cv2.CAP_PROP_AUTO_WB, 1)
        for _ in range(self.settle_frames):  # let auto exposure settle, then freeze it
            ok, _frame = cap.read()
            if not ok:
                raise CameraUnavailable(f"USB camera {self.source} returned no frame while settling")
        exposure = cap.get(cv2.CAP_PROP_EXPOSURE)
        cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 0.25)
        cap.set(cv2.CAP_PROP_EXPOSURE, exposure)
        cap.set(cv2.CAP_PROP_AUTO_WB, 0)

    def _close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


# --------------------------------------------------------------------------- recorded photos or a recorded game


class FolderCamera(Camera):
    """Recorded photos (FORMATS.md §5) or a recorded game's frames (§6), in file-name order.

    ``fps`` paces the frames (frame ``k`` no earlier than ``k / fps`` after the
    first, with the injected ``clock`` and ``sleep``); ``None`` serves them
    as fast as they are asked for. ``loop`` starts again at the end. A file
    that cannot be decoded is reported and skipped. :attr:`game` holds
    ``game.json`` when the folder is a recorded game; :attr:`current` is the
    path of the last frame served (its sidecar label has the same stem).
    """

    backend = "folder"

    def __init__(self, folder: str | Path, *, fps: float | None = None, loop: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise CameraError(f"frame folder {str(self.folder)!r} not found")
        self.paths = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_EXTENSIONS)
        if not self.paths:
            raise CameraError(f"no images (*.jpg, *.jpeg, *.png) in {str(self.folder)!r}")
        if fps is not None and fps <= 0:
            raise ConfigError(f"folder camera fps must be positive, got {fps}")
        self.fps = fps
        self.loop = loop
        self.game: dict[str, Any] | None = self._load_game()
        self.current: Path | None = None
        self.skipped: list[Path] = []
        self._next = 0
        self._served = 0
        self._start: float | None = None

    def _load_game(self) -> dict[str, Any] | None:
        path = self.folder / "game.json"
        if not path.exists():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CameraError(f"{str(path)!r} is not a readable game description: {exc}") from None
        return data if isinstance(data, dict) else None

    def describe(self) -> str:
        return f"folder {self.folder.name}"

    def _open(self) -> None:
        if self._start is None:
            self._start = self._clock()

    def _read(self) -> np.ndarray:
        while True:
            if self._next >= len(self.paths):
                if not self.loop or len(self.skipped) >= len(self.paths):
                    raise EndOfFrames(f"no more frames in {str(self.folder)!r}")
                self._next = 0
            path = self.paths[self._next]
            self._next += 1
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if frame is None:
                log.warning("skipping %s: not a readable image", path)
                if path not in self.skipped:
                    self.skipped.append(path)
                continue
            break
        if self.fps is not None and self._start is not None:
            due = self._start + self._served / self.fps
            wait = due - self._clock()
            if wait > 0:
                self._sleep(wait)
        self._served += 1
        self.current = path
        return frame


# --------------------------------------------------------------------------- choosing a backend

BACKENDS = ("picamera2", "opencv", "folder", "sim")


def open_camera(config: Mapping[str, Any] | None, **kwargs: Any) -> Camera:
    """The camera named by ``config["backend"]``; other keys go to that backend.

    ``kwargs`` (``sleep``, ``clock``, ``on_status``, ``backoff``) are added
    for every backend. An unknown or unavailable backend is an error: the
    simulator is only used when asked for.
    """
    options = dict(config or {})
    backend = str(options.pop("backend", "picamera2"))
    options.update(kwargs)
    for key in ("size",):
        if key in options and options[key] is not None:
            options[key] = tuple(options[key])
    try:
        if backend == "picamera2":
            from hardware.picam import Picamera2Camera

            return Picamera2Camera(**options)
        if backend == "opencv":
            return OpenCVCamera(**options)
        if backend == "folder":
            return FolderCamera(**options)
        if backend == "sim":
            from hardware.sim_camera import SimCamera

            return SimCamera(**options)
    except TypeError as exc:
        raise ConfigError(f"bad options for the {backend} camera: {exc}") from None
    raise ConfigError(f"unknown camera backend {backend!r}; use one of {', '.join(BACKENDS)}")


__all__ = [
    "BACKENDS",
    "Backoff",
    "Camera",
    "CameraError",
    "CameraUnavailable",
    "EndOfFrames",
    "FolderCamera",
    "OpenCVCamera",
    "open_camera",
]
