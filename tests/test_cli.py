"""The command-line root: every command is registered by the module the table names, and misuse exits 2."""

from __future__ import annotations

import argparse
import importlib

import pytest

from companion import cli


@pytest.mark.parametrize(("module", "commands"), sorted(cli.COMMAND_MODULES.items()))
def test_each_module_registers_exactly_its_commands(module: str, commands: tuple[str, ...]) -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    importlib.import_module(module).register(sub)
    assert tuple(sub.choices) == commands


def test_only_the_commands_module_is_imported_for_a_command() -> None:
    assert cli._modules_for(["analyze", "state.json"]) == ["companion.cli_analysis"]
    assert cli._modules_for(["--help"]) == list(cli.COMMAND_MODULES)


def test_unknown_command_and_no_command_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["no-such-command"])
    assert exc.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
    assert cli.main([]) == 2
