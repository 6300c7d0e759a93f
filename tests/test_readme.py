"""The README's two commands are the newcomer's way in; CI must run exactly the test one."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _sh_blocks(text: str) -> list[str]:
    return [b.strip() for b in re.findall(r"```sh\n(.*?)```", text, flags=re.S)]


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Run the tests", 1)[1]
    command = _sh_blocks(section)[0]
    ci_lines = [
        line.strip()
        for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert command in ci_lines, f"README test command {command!r} is not what .ci/run runs"


def test_readme_simulator_command_installs_and_runs_the_simulator() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Try it on any Linux machine", 1)[1]
    command = _sh_blocks(section)[0]
    assert "pip install -e ." in command
    assert command.endswith("labyrinth-companion run --sim")
