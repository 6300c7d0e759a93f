"""Labelled folders, the evaluation's metrics and the ``vision-test`` command."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.board import FIXED_TILES, SIZE, Color, InvalidStateError, Tile
from companion.cli import main
from companion.observation import Observation, TileReading
from vision.dataset import Sample, decode_image, load_folder, parse_label

ROWS = [["NS"] * SIZE for _ in range(SIZE)]


def _label(**extra: object) -> dict[str, object]:
    data: dict[str, object] = {"tiles": ROWS, "pawns": {"red": [0, 0]}, "lighting": "day", "occluded": False}
    data.update(extra)
    return data


def _write(folder: Path, stem: str, label: object | None, image: bool = True, raw_label: str | None = None) -> None:
    if image:
        cv2.imwrite(str(folder / f"{stem}.png"), np.full((80, 100, 3), 120, np.uint8))
    if raw_label is not None:
        (folder / f"{stem}.json").write_text(raw_label)
    elif label is not None:
        (folder / f"{stem}.json").write_text(json.dumps(label))


# --------------------------------------------------------------------------- labels


def test_parse_label_normalises_and_validates() -> None:
    label = parse_label(_label(tiles=[["SN"] * SIZE] * SIZE, pawns={"Blue": [3, 4]}, treasures=[[1, 1]]))
    assert label.tiles is not None and set(label.tiles) == {Tile.NS}
    assert label.pawns == {Color.BLUE: (3, 4)}
    assert label.treasures == frozenset({(1, 1)})
    occluded = parse_label({"occluded": True, "lighting": "night"})
    assert occluded.tiles is None and occluded.occluded and occluded.lighting == "night"


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([], "JSON object"),
        ({"pawns": {}}, "no 'tiles'"),
        (_label(tiles=ROWS[:6]), "7 rows"),
        (_label(tiles=[["NS"] * 6 + ["NESW"], *ROWS[1:]]), "tile [0,6]"),
        (_label(pawns={"purple": [0, 0]}), "unknown color"),
        (_label(pawns={"red": [7, 0]}), "off the board"),
        (_label(corners=[[0, 0], [1, 1]]), "corners"),
        (_label(lighting="dusk"), "lighting"),
        (_label(occluded="yes"), "occluded"),
    ],
)
def test_parse_label_rejects_with_a_reason(data: object, words: str) -> None:
    with pytest.raises(InvalidStateError, match=words.replace("[", r"\[").replace("]", r"\]")):
        parse_label(data)


def test_load_folder_skips_bad_files_with_reasons(tmp_path: Path) -> None:
    _write(tmp_path, "a_good", _label())
    _write(tmp_path, "b_nolabel", None)
    _write(tmp_path, "c_badjson", None, raw_label="{not json")
    _write(tmp_path, "d_invalid", _label(tiles="x"))
    (tmp_path / "e_broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 truncated")
    (tmp_path / "e_broken.json").write_text(json.dumps(_label()))
    (tmp_path / "calibration.json").write_text(json.dumps({"pawn_colors": {}}))
    (tmp_path / "notes.txt").write_text("ignored")
    data = load_folder(tmp_path)
    assert [s.name for s in data.samples] == ["a_good.png", "e_broken.jpg"]
    reasons = {s.path.name: s.reason for s in data.skipped}
    assert set(reasons) == {"b_nolabel.png", "c_badjson.png", "d_invalid.png"}
    assert "no label" in reasons["b_nolabel.png"]
    assert "not JSON" in reasons["c_badjson.png"]
    assert "invalid label" in reasons["d_invalid.png"]
    assert all("\n" not in r for r in reasons.values())
    assert data.calibration == {"pawn_colors": {}}
    image, reason = decode_image(tmp_path / "e_broken.jpg")
    assert image is None and reason
    image, reason = decode_image(tmp_path / "a_good.png")
    assert image is not None and image.shape == (80, 100, 3) and reason is None


def test_load_folder_missing_raises() -> None:
    with pytest.raises(FileNotFoundError):
        load_folder("/nonexistent/folder")


# --------------------------------------------------------------------------- metrics


def _observation(tiles: list[Tile], pawns: dict[Color, tuple[int, int]]) -> Observation:
    return Observation(tiles=tuple(TileReading(t, 0.9) for t in tiles), pawns=pawns)


def _sample(tmp_path: Path, label: dict[str, object]) -> Sample:
    return Sample(tmp_path / "x.png", parse_label(label))


def test_compare_and_summarise_follow_the_issue_table(tmp_path: Path) -> None:
    from vision.evaluate import compare, summarise

    truth = [Tile.NS] * 49
    right = compare(_sample(tmp_path, _label()), _observation(truth, {Color.RED: (0, 0)}), 10.0)
    assert right.board_right and right.tiles_right == 49 and right.pawns_right == 1

    one_off = list(truth)
    one_off[8] = Tile.EW
    wrong = compare(
        _sample(tmp_path, _label()), _observation(one_off, {Color.RED: (0, 1), Color.BLUE: (2, 2)}), 30.0
    )
    assert wrong.tiles_right == 48 and wrong.pawns_right == 0 and wrong.pawns_total == 2
    assert set(wrong.errors) == {"tile", "pawn_square", "pawn_extra"}

    false_occ = compare(_sample(tmp_path, _label()), Observation.unreadable("hand"), 20.0)
    assert false_occ.tiles_right == 0 and false_occ.tiles_total == 49 and false_occ.errors == ["false_occlusion"]

    hidden = compare(_sample(tmp_path, {"occluded": True}), Observation.unreadable("hand"), 5.0)
    missed = compare(_sample(tmp_path, {"occluded": True}), _observation(truth, {}), 5.0)
    assert hidden.board_right and not missed.board_right and missed.errors == ["missed_occlusion"]

    summary = summarise([right, wrong, false_occ, hidden, missed], images=6).to_json()
    assert list(summary) == [
        "images", "readable", "board_accuracy", "tile_accuracy", "pawn_accuracy", "occlusion_accuracy", "ms_median",
    ]  # fmt: skip
    assert summary["images"] == 6 and summary["readable"] == 5
    assert summary["board_accuracy"] == pytest.approx(2 / 5)
    assert summary["tile_accuracy"] == pytest.approx((49 + 48 + 0) / (3 * 49))
    assert summary["pawn_accuracy"] == pytest.approx(1 / 4)
    assert summary["occlusion_accuracy"] == pytest.approx(3 / 5)
    assert summary["ms_median"] == pytest.approx(10.0)


def test_fixed_tiles_label_round_trip() -> None:
    rows = [[str(FIXED_TILES.get((r, c), Tile.NS)) for c in range(SIZE)] for r in range(SIZE)]
    label = parse_label(_label(tiles=rows))
    assert label.tiles is not None and label.tiles[0] == Tile.ES


# --------------------------------------------------------------------------- command


def test_vision_test_missing_dir_is_exit_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision-test", "/nonexistent/photos", "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "no such folder" in err


# --------------------------------------------------------------------------- committed photo fixtures

PHOTOS = Path(__file__).parent / "photos"

#: Minimum figures per fixture folder (the issue's targets, with the margin a handful of
#: photos allows: one wrong board in 8 is 87.5 %), each about one mistake under what the
#: reader reaches now. The held-out and third-renderer folders are never tuned on: their
#: floors only catch a change that makes the reader generalise worse.
THRESHOLDS: dict[str, dict[str, float]] = {
    "day_classic": {"board_accuracy": 0.85, "tile_accuracy": 0.995, "pawn_accuracy": 0.95, "occlusion_accuracy": 1.0},
    "day_mixed_looks": {
        "board_accuracy": 0.8, "tile_accuracy": 0.995, "pawn_accuracy": 0.95, "occlusion_accuracy": 0.9,
    },
    "night": {"tile_accuracy": 0.98, "occlusion_accuracy": 0.83},
    "occluded": {"occlusion_accuracy": 1.0, "tile_accuracy": 0.97},
    "holdout_day": {"board_accuracy": 0.33, "tile_accuracy": 0.97, "pawn_accuracy": 0.85, "occlusion_accuracy": 0.83},
    "holdout_night": {"tile_accuracy": 0.98, "occlusion_accuracy": 0.75},
    "holdout_occluded": {"occlusion_accuracy": 0.75},
    "third_day": {"board_accuracy": 0.7, "tile_accuracy": 0.99, "pawn_accuracy": 0.9, "occlusion_accuracy": 0.7},
    "third_night": {"tile_accuracy": 0.98, "occlusion_accuracy": 0.83},
}


@pytest.fixture(scope="module")
def fixture_results() -> dict[str, dict[str, float]]:
    from vision.evaluate import evaluate_folder

    return {name: evaluate_folder(PHOTOS / name).summary.to_json() for name in THRESHOLDS}


@pytest.mark.parametrize("folder", list(THRESHOLDS))
def test_fixture_folder_meets_its_thresholds(folder: str, fixture_results: dict[str, dict[str, float]]) -> None:
    summary = fixture_results[folder]
    assert summary["readable"] == summary["images"] > 0
    for key, minimum in THRESHOLDS[folder].items():
        assert summary[key] >= minimum, f"{folder}: {key} {summary[key]:.3f} < {minimum}"


def test_vision_test_json_is_the_only_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    for stem in ("0000", "0001"):
        for ext in ("jpg", "json"):
            shutil.copy(PHOTOS / "occluded" / f"{stem}.{ext}", tmp_path / f"{stem}.{ext}")
    _write(tmp_path, "zz_nolabel", None)
    assert main(["vision-test", str(tmp_path), "--json", "--save-debug", str(tmp_path / "debug")]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert list(data) == [
        "images", "readable", "board_accuracy", "tile_accuracy", "pawn_accuracy", "occlusion_accuracy", "ms_median",
    ]  # fmt: skip
    assert data["images"] == 3 and data["readable"] == 2
    assert all(isinstance(data[k], float) for k in list(data)[2:])
    assert "zz_nolabel.png: skipped: no label" in err
    assert sorted(p.name for p in (tmp_path / "debug").iterdir()) == ["0000.jpg", "0001.jpg"]


def test_vision_test_prints_lines_and_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision-test", str(PHOTOS / "occluded")]) == 0
    out, _ = capsys.readouterr()
    lines = out.strip().splitlines()
    assert len(lines) == 7 and lines[-1].startswith("images 6  readable 6")
    assert all(line.split()[1] in ("ok", "WRONG") for line in lines[:-1])


def test_vision_test_on_a_folder_with_nothing_readable_says_so_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ratios over no photo are vacuous: the counts are printed, but the run exits 1 with a one-line error."""
    (tmp_path / "0000.jpg").write_bytes(b"not a jpeg")
    (tmp_path / "0000.json").write_text(json.dumps(_label()))
    assert main(["vision-test", str(tmp_path), "--json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["images"] == 1 and json.loads(out)["readable"] == 0
    assert "no readable labelled photo (1 skipped)" in err and "Traceback" not in err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["vision-test", str(empty)]) == 1
    assert "no readable labelled photo (0 skipped)" in capsys.readouterr().err
