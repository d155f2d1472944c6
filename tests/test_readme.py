"""The README documents every command and every option of the command line."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from yimao_db.cli import make_parser

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = make_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


def test_every_command_is_in_the_readme_table() -> None:
    documented = set(re.findall(r"^\| `yimao ([a-z-]+)", README, flags=re.MULTILINE))
    assert documented == set(subcommands())


def test_every_option_is_mentioned_in_the_readme() -> None:
    missing = []
    for name, sub in subcommands().items():
        for action in sub._actions:
            for option in action.option_strings:
                if option.startswith("--") and option not in ("--help", "--db"):
                    if option not in README:
                        missing.append(f"yimao {name} {option}")
    assert missing == []


def test_quick_start_has_three_commands() -> None:
    block = README.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line and not line.startswith("#")]
    assert commands == [
        "pip install . && yimao build && yimao show 乾 && yimao cast 乾之姤 --at 2026-11-30T09:15",
        'pip install -e ".[test]" && pytest',
        'pip install ".[web]" && yimao serve',
    ]
