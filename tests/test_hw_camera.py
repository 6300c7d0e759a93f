"""Cameras: a fake picamera2 module, OpenCV on a small video and a fake capture, recorded folders, the simulator."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Any, ClassVar

import cv2
import numpy as np
import pytest

from companion.board import Board
from companion.errors import ConfigError
from hardware.camera import (
    Backoff,
    CameraError,
    CameraUnavailable,
    EndOfFrames,
    FolderCamera,
    OpenCVCamera,
    open_camera,
)
from hardware.picam import INSTALL_HINT, Picamera2Camera
from hardware.sim_camera import SimCamera, SimPosition, simulated_game


class Sleeps:
    """An injected sleep that records the waits and advances a fake clock."""

    def __init__(self) -> None:
        self.waits: list[float] = []
        self.now = 100.0

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds

    def clock(self) -> float:
        return self.now


# --------------------------------------------------------------------------- fake picamera2


class FakeRequest:
    def __init__(self, cam: FakePicamera2, fail: bool) -> None:
        self.cam, self.fail = cam, fail

    def make_array(self, name: str) -> np.ndarray:
        self.cam.calls.append(("make_array", name))
        if self.fail:
            raise RuntimeError("dequeue failed")
        return np.full((4, 6, 3), len(self.cam.calls) % 256, dtype=np.uint8)

    def release(self) -> None:
        self.cam.calls.append(("release",))
        self.cam.released += 1


class FakePicamera2:
    cameras: ClassVar[list[dict[str, Any]]] = [{"Model": "imx708"}]
    instances: ClassVar[list[FakePicamera2]] = []
    script: ClassVar[list[str]] = []  # per read: "ok", "timeout", "bad-array"

    def __init__(self, num: int) -> None:
        self.num = num
        self.calls: list[tuple] = []
        self.released = 0
        self.metadata = [
            {"ExposureTime": 20000, "AnalogueGain": 4.0, "ColourGains": (1.2, 2.0)},
            {"ExposureTime": 15000, "AnalogueGain": 2.0, "ColourGains": (1.5, 1.8)},
            {"ExposureTime": 12000, "AnalogueGain": 1.5, "ColourGains": (1.6, 1.7)},
            {"ExposureTime": 12001, "AnalogueGain": 1.5, "ColourGains": (1.6, 1.7)},
            {"ExposureTime": 12002, "AnalogueGain": 1.5, "ColourGains": (1.6, 1.7)},
            {"ExposureTime": 12003, "AnalogueGain": 1.51, "ColourGains": (1.6, 1.7)},
            {"ExposureTime": 99999, "AnalogueGain": 9.0, "ColourGains": (3.0, 3.0)},
        ]
        FakePicamera2.instances.append(self)

    @staticmethod
    def global_camera_info() -> list[dict[str, Any]]:
        return FakePicamera2.cameras

    def create_video_configuration(self, main: dict, controls: dict) -> dict:
        self.calls.append(("create_video_configuration", main, controls))
        return {"main": main, "controls": controls}

    def configure(self, config: dict) -> None:
        self.calls.append(("configure", config))

    def start(self) -> None:
        self.calls.append(("start",))

    def stop(self) -> None:
        self.calls.append(("stop",))

    def close(self) -> None:
        self.calls.append(("close",))

    def set_controls(self, controls: dict) -> None:
        self.calls.append(("set_controls", dict(controls)))

    def capture_metadata(self) -> dict:
        self.calls.append(("capture_metadata",))
        return self.metadata.pop(0) if len(self.metadata) > 1 else self.metadata[0]

    def capture_request(self, wait: bool | None = None) -> str:
        self.calls.append(("capture_request", wait))
        return "job"

    def wait(self, job: str, timeout: float | None = None) -> FakeRequest:
        self.calls.append(("wait", timeout))
        step = FakePicamera2.script.pop(0) if FakePicamera2.script else "ok"
        if step == "timeout":
            raise TimeoutError()
        return FakeRequest(self, fail=step == "bad-array")


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> type[FakePicamera2]:
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    FakePicamera2.instances = []
    FakePicamera2.script = []
    FakePicamera2.cameras = [{"Model": "imx708"}]
    return FakePicamera2


def names(calls: list[tuple]) -> list[str]:
    return [c[0] for c in calls]


def test_picamera2_configures_settles_then_locks(fake_picamera2) -> None:
    with Picamera2Camera(size=(640, 480), sleep=Sleeps()) as cam:
        frame = cam.capture()
        fake = fake_picamera2.instances[-1]
        assert frame.shape == (4, 6, 3)
        calls = fake.calls
        assert calls[0] == ("create_video_configuration", {"format": "RGB888", "size": (640, 480)},
                            {"FrameDurationLimits": (33_333, 100_000)})  # fmt: skip
        assert names(calls)[1:3] == ["configure", "start"]
        assert calls[3] == ("set_controls", {"FrameDurationLimits": (33_333, 100_000), "AeEnable": True,
                                             "AwbEnable": True})  # fmt: skip
        # metadata read until three steady frames in a row, then locked with the last values
        lock_at = names(calls).index("set_controls", 4)
        assert names(calls)[4:lock_at] == ["capture_metadata"] * 6
        assert calls[lock_at] == ("set_controls", {
            "AeEnable": False, "AwbEnable": False, "ExposureTime": 12003, "AnalogueGain": 1.51,
            "ColourGains": (1.6, 1.7)})  # fmt: skip
        assert names(calls)[lock_at + 1 :] == ["capture_request", "wait", "make_array", "release"]
        assert calls[lock_at + 1] == ("capture_request", False) and calls[lock_at + 2] == ("wait", 5.0)
        assert cam.locked["ExposureTime"] == 12003
    assert names(fake.calls)[-2:] == ["stop", "close"]


def test_picamera2_fixed_controls_follow_start(fake_picamera2) -> None:
    Picamera2Camera(controls={"AfMode": 0, "LensPosition": 2.0}, sleep=Sleeps()).capture()
    calls = fake_picamera2.instances[-1].calls
    assert names(calls)[2:4] == ["start", "set_controls"] and calls[3][1] == {"AfMode": 0, "LensPosition": 2.0}


def test_picamera2_night_sets_frame_duration_before_exposure(fake_picamera2) -> None:
    cam = Picamera2Camera(night_frame_us=400_000, night_exposure_us=350_000, night_gain=10.0, sleep=Sleeps())
    cam.capture()
    fake = fake_picamera2.instances[-1]
    before = len(fake.calls)
    cam.set_mode("night")
    night = fake.calls[before:]
    assert night == [
        ("set_controls", {"AeEnable": False, "AwbEnable": False, "FrameDurationLimits": (400_000, 400_000)}),
        ("set_controls", {"ExposureTime": 350_000, "AnalogueGain": 10.0}),
    ]
    cam.set_mode("day")  # back to auto, settle, lock again
    day = fake.calls[before + 2 :]
    assert day[0][1]["AeEnable"] is True and day[-1][1]["AeEnable"] is False
    with pytest.raises(CameraError, match="does not fit"):
        Picamera2Camera(night_frame_us=100_000, night_exposure_us=200_000)


def test_picamera2_releases_requests_even_when_the_array_fails(fake_picamera2) -> None:
    sleeps = Sleeps()
    fake_picamera2.script = ["bad-array", "timeout", "ok"]
    cam = Picamera2Camera(sleep=sleeps)
    frame = cam.capture()
    assert frame is not None
    first, second, third = fake_picamera2.instances
    assert first.released == 1 and names(first.calls)[-2:] == ["stop", "close"]  # reopened after the failure
    assert second.released == 0 and names(second.calls)[-2:] == ["stop", "close"]  # timed out: nothing to release
    assert third.released == 1
    assert sleeps.waits == [0.5, 1.0]
    assert cam.status == "ok" and cam.failures == 0


def test_picamera2_missing_module_or_camera(fake_picamera2, monkeypatch) -> None:
    fake_picamera2.cameras = []
    sleeps = Sleeps()
    statuses: list[tuple[str, str | None]] = []
    cam = Picamera2Camera(sleep=sleeps, on_status=lambda s, e: statuses.append((s, e)))
    with pytest.raises(CameraUnavailable, match=r"no camera 0 detected.*ribbon"):
        cam.capture()
    assert sleeps.waits == [0.5, 1.0, 2.0, 4.0] and cam.status == "lost" and "lost" in repr(cam)
    assert statuses[0][0] == "lost"
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(CameraError, match="apt install python3-picamera2") as info:
        Picamera2Camera(sleep=sleeps).capture()
    assert "--system-site-packages" in str(info.value) and str(info.value) == INSTALL_HINT


# --------------------------------------------------------------------------- OpenCV


def write_video(path: Path, count: int) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened()
    for k in range(count):
        writer.write(np.full((48, 64, 3), 20 * k + 10, dtype=np.uint8))
    writer.release()


def test_opencv_video_file_ends_or_loops(tmp_path: Path) -> None:
    video = tmp_path / "game.avi"
    write_video(video, 3)
    with OpenCVCamera(str(video)) as cam:
        frames = list(cam.frames())
        assert cam.status == "ended"
    assert len(frames) == 3 and frames[0].shape == (48, 64, 3)
    assert abs(int(frames[2].mean()) - 50) <= 3
    looped = OpenCVCamera(video, loop=True)
    assert len([f for _, f in zip(range(7), looped.frames(), strict=False)]) == 7
    with pytest.raises(CameraError, match="not found"):
        OpenCVCamera(tmp_path / "nope.avi")


class FakeCapture:
    """A USB camera that opens, delivers ``good`` frames, then returns nothing (unplugged)."""

    opened: ClassVar[list[FakeCapture]] = []
    plan: ClassVar[list[int]] = []  # frames per opening; -1: cannot open

    def __init__(self, source: int) -> None:
        self.source = source
        self.good = FakeCapture.plan.pop(0) if FakeCapture.plan else 100
        self.props: list[tuple[int, float]] = []
        self.released = False
        FakeCapture.opened.append(self)

    def isOpened(self) -> bool:  # the OpenCV name
        return self.good >= 0

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.good <= 0:
            return False, None
        self.good -= 1
        return True, np.zeros((2, 2, 3), np.uint8)

    def set(self, prop: int, value: float) -> bool:
        self.props.append((prop, value))
        return True

    def get(self, prop: int) -> float:
        return 123.0

    def release(self) -> None:
        self.released = True


def test_opencv_device_loss_is_retried_with_backoff() -> None:
    FakeCapture.opened = []
    FakeCapture.plan = [3 + 2, -1, -1, 10 + 2]  # 2 settle frames each time it opens
    sleeps = Sleeps()
    cam = OpenCVCamera(0, settle_frames=2, capture_factory=FakeCapture, sleep=sleeps, clock=sleeps.clock)
    got = [f for _, f in zip(range(6), cam.frames(), strict=False)]
    assert len(got) == 6
    assert sleeps.waits == [0.5, 1.0, 2.0]  # lost, cannot open, cannot open, back
    assert all(c.released for c in FakeCapture.opened[:3])
    first = FakeCapture.opened[0]
    # day mode: auto exposure, settle, then manual with the settled exposure and white balance off
    assert first.props[:2] == [(cv2.CAP_PROP_AUTO_EXPOSURE, 0.75), (cv2.CAP_PROP_AUTO_WB, 1)]
    assert first.props[2:] == [(cv2.CAP_PROP_AUTO_EXPOSURE, 0.25), (cv2.CAP_PROP_EXPOSURE, 123.0),
                               (cv2.CAP_PROP_AUTO_WB, 0)]  # fmt: skip
    cam.set_mode("night")
    assert FakeCapture.opened[-1].props[-2:] == [(cv2.CAP_PROP_EXPOSURE, -4.0), (cv2.CAP_PROP_GAIN, 100.0)]
    cam.close()
    assert FakeCapture.opened[-1].released


def test_capture_gives_up_after_the_configured_attempts() -> None:
    FakeCapture.plan = [-1] * 10
    sleeps = Sleeps()
    cam = OpenCVCamera(1, capture_factory=FakeCapture, sleep=sleeps, backoff=Backoff(0.1, 3.0, 1.0, 4))
    with pytest.raises(CameraUnavailable, match="after 4 attempts"):
        cam.capture()
    assert sleeps.waits == pytest.approx([0.1, 0.3, 0.9])
    assert cam.failures == 4


# --------------------------------------------------------------------------- folder


def make_folder(tmp_path: Path, count: int, game: bool = False) -> Path:
    folder = tmp_path / "rec"
    folder.mkdir()
    for k in range(count):
        cv2.imwrite(str(folder / f"{k:04d}.png"), np.full((8, 8, 3), k * 10, np.uint8))
        (folder / f"{k:04d}.json").write_text("{}")
    if game:
        (folder / "game.json").write_text(json.dumps({"variant": "classic", "players": [{"color": "red"}]}))
    return folder


def test_folder_serves_in_order_skips_bad_files_and_ends(tmp_path: Path) -> None:
    folder = make_folder(tmp_path, 3, game=True)
    (folder / "0001b.jpg").write_bytes(b"not an image")
    cam = FolderCamera(folder)
    values = [int(f[0, 0, 0]) for f in cam.frames()]
    assert values == [0, 10, 20]
    assert [p.name for p in cam.skipped] == ["0001b.jpg"]
    assert cam.game is not None and cam.game["variant"] == "classic"
    assert cam.current is not None and cam.current.name == "0002.png"
    with pytest.raises(EndOfFrames):
        cam.capture()


def test_folder_pacing_uses_the_injected_clock(tmp_path: Path) -> None:
    folder = make_folder(tmp_path, 4)
    sleeps = Sleeps()
    cam = FolderCamera(folder, fps=2.0, loop=True, sleep=sleeps, clock=sleeps.clock)
    for _ in range(6):
        cam.capture()
        sleeps.now += 0.1  # the caller takes 0.1 s per frame
    assert sleeps.waits == pytest.approx([0.4] * 5)


def test_folder_errors(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="not found"):
        FolderCamera(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(CameraError, match="no images"):
        FolderCamera(tmp_path / "empty")


# --------------------------------------------------------------------------- simulator and the common contract


def fake_renderer(board: Board, *, seed: int, look, lighting: str, size, occlusion: bool, **options):
    value = 200 if lighting == "day" else 20
    image = np.full((size[1], size[0], 3), value, np.uint8)
    return image, {"tiles": board.to_json()["tiles"], "lighting": lighting, "occluded": occlusion}


def test_simulated_game_is_legal_and_seeded() -> None:
    a = [p.board for _, p in zip(range(9), simulated_game(5), strict=False)]
    b = [p.board for _, p in zip(range(9), simulated_game(5), strict=False)]
    assert a == b
    for before, after in zip(a[1::2], a[2::2], strict=False):  # a move: tiles unchanged, pawn moved along corridors
        moved = [c for c in before.pawns if before.pawns[c] != after.pawns[c]]
        assert before.tiles == after.tiles and len(moved) <= 1
        for c in moved:
            assert after.pawns[c] in before.reachable(before.pawns[c])
    for before, after in zip(a[0::2], a[1::2], strict=False):  # a push: never the reverse of the last one
        assert before.is_legal_push(after.last_push)


def test_sim_camera_positions_hands_modes_and_failures() -> None:
    boards = [p.board for _, p in zip(range(3), simulated_game(1), strict=False)]
    sleeps = Sleeps()
    cam = SimCamera(boards, renderer=fake_renderer, size=(16, 12), frames_per_board=2, sleep=sleeps)
    labels = []
    for frame in cam.frames():
        assert frame.shape == (12, 16, 3)
        labels.append(cam.last_label["occluded"])
        if len(labels) == 2:
            cam.set_mode("night")
            cam.fail_next(2)
    assert labels == [False, False, True, False, True, False]  # hands over the first frame after a change
    assert cam.last_label["lighting"] == "night" and sleeps.waits == [0.5, 1.0]
    assert cam.status == "ended"


def test_sim_camera_with_any_frame_source() -> None:
    cam = SimCamera(source=lambda i, mode: None if i >= 2 else np.full((2, 2, 3), i, np.uint8))
    assert [int(f[0, 0, 0]) for f in cam.frames()] == [0, 1]


def test_sim_camera_with_the_vision_renderer() -> None:
    pytest.importorskip("vision.render")
    board = next(simulated_game(2)).board
    with SimCamera([SimPosition(board, {}, "start")], size=(160, 120), seed=4) as cam:
        frame = cam.capture()
    assert frame.shape == (120, 160, 3) and frame.dtype == np.uint8
    assert cam.last_label["tiles"] == board.to_json()["tiles"]


def test_open_camera_from_config(tmp_path: Path, fake_picamera2) -> None:
    folder = make_folder(tmp_path, 1)
    assert isinstance(open_camera({"backend": "folder", "folder": str(folder)}), FolderCamera)
    assert isinstance(open_camera({"backend": "picamera2", "size": [320, 240]}), Picamera2Camera)
    assert isinstance(open_camera({"backend": "sim", "size": [32, 24], "renderer": fake_renderer}), SimCamera)
    with pytest.raises(ConfigError, match="unknown camera backend"):
        open_camera({"backend": "webcam"})
    with pytest.raises(ConfigError, match="bad options"):
        open_camera({"backend": "folder", "folder": str(folder), "speed": 2})


@pytest.mark.parametrize("backend", ["folder", "opencv", "sim", "picamera2"])
def test_every_camera_behaves_alike(backend: str, tmp_path: Path, fake_picamera2) -> None:
    if backend == "folder":
        cam = FolderCamera(make_folder(tmp_path, 2))
    elif backend == "opencv":
        video = tmp_path / "v.avi"
        write_video(video, 2)
        cam = OpenCVCamera(video)
    elif backend == "sim":
        cam = SimCamera(renderer=fake_renderer, size=(8, 6))
    else:
        cam = Picamera2Camera(sleep=Sleeps())
    assert cam.status == "idle"
    frame = cam.capture()
    assert isinstance(frame, np.ndarray) and frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
    cam.set_mode("night")
    assert cam.mode == "night" and "night mode" in repr(cam) and "1 frames" in repr(cam)
    with pytest.raises(ConfigError):
        cam.set_mode("dusk")
    cam.close()
    cam.close()
    assert "closed" in repr(cam) and list(cam.frames()) == []
    with pytest.raises(CameraError, match="closed"):
        cam.capture()
