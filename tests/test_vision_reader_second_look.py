"""The reader's second look: a located day grid whose quality refutes it is replaced by locate's other answer
only when that answer's grid quality clearly passes (ReaderConfig.second_look)."""

from __future__ import annotations

import numpy as np
import pytest

import vision.reader as reader_mod
from vision.locate import BoardNotFoundError, Located, locate_board
from vision.reader import BoardReader, ReaderConfig


def _render(seed: int) -> tuple[np.ndarray, dict]:
    from vision.render import random_board, render_photo

    board, names = random_board(seed)
    return render_photo(
        board, seed=seed, look="classic", size=(1280, 960), treasure_names=names[:49], spare_treasure=names[49]
    )


def _scaled(corners: np.ndarray, factor: float) -> np.ndarray:
    """A grid ``factor`` times as large about the same centre (a located answer at the wrong pitch)."""
    centre = corners.mean(axis=0)
    return (centre + factor * (corners - centre)).astype(np.float32)


@pytest.fixture(scope="module")
def photo() -> tuple[np.ndarray, dict]:
    return _render(51)


def _fake_locate(answers: list[np.ndarray], calls: list[object]):  # type: ignore[no-untyped-def]
    """locate_board answering the first grid, then (asked with ``exclude``) the second, or not found."""

    def fake(image: np.ndarray, config: object = None, exclude: np.ndarray | None = None) -> Located:
        calls.append(exclude)
        k = 0 if exclude is None else 1
        if k >= len(answers):
            raise BoardNotFoundError("no other grid")
        return Located(answers[k], None)

    return fake


def test_a_refuted_pitch_is_read_again_on_locates_other_answer(photo, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    image, label = photo
    truth = np.array(label["corners"], dtype=np.float32)
    calls: list[object] = []
    monkeypatch.setattr(reader_mod, "locate_board", _fake_locate([_scaled(truth, 1.22), truth], calls))
    first = BoardReader(ReaderConfig(second_look=False)).read_detailed(image)
    assert first.observation.occluded and first.grid_quality is not None and first.grid_quality < 0.85
    calls.clear()
    obs = BoardReader().read(image)
    assert len(calls) == 2 and np.allclose(np.asarray(calls[1]), _scaled(truth, 1.22))
    assert obs.readable and [[str(t) for t in row] for row in obs.tile_rows()] == label["tiles"]


def test_a_second_answer_no_better_keeps_the_first_read(photo, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    image, label = photo
    truth = np.array(label["corners"], dtype=np.float32)
    wrong, worse = _scaled(truth, 1.22), _scaled(truth, 0.8)
    monkeypatch.setattr(reader_mod, "locate_board", _fake_locate([wrong, worse], []))
    reading = BoardReader().read_detailed(image)
    assert reading.observation.occluded
    assert np.allclose(np.array(reading.observation.corners), wrong, atol=1.0)


def test_a_good_first_read_asks_locate_once(photo, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    image, label = photo
    truth = np.array(label["corners"], dtype=np.float32)
    calls: list[object] = []
    monkeypatch.setattr(reader_mod, "locate_board", _fake_locate([truth, _scaled(truth, 1.22)], calls))
    assert BoardReader().read(image).readable and calls == [None]


def test_locate_excluding_its_answer_gives_another_grid_or_none(photo) -> None:  # type: ignore[no-untyped-def]
    image, _ = photo
    found = locate_board(image).corners
    try:
        other = locate_board(image, exclude=found).corners
    except BoardNotFoundError:
        return
    pitch = float(np.mean(np.linalg.norm(found - np.roll(found, 1, axis=0), axis=1))) / 7.0
    assert np.abs(other - found).max() >= 0.25 * pitch
