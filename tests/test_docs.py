"""The documentation tells the truth: every command shown in docs/tutorial.md prints what the
page says it prints, the language reference lists every built-in and quotes the grammar as it is.

    python tests/test_docs.py --update     # rewrite the tutorial's outputs after a change
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from gdl.builtins import BUILTINS, TABLE

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "docs" / "tutorial.md"
LANGUAGE = ROOT / "docs" / "language.md"
BLOCK = re.compile(r"```console\n(.*?)```", re.S)


def examples(text: str) -> list[tuple[str, str]]:
    """(command, output) pairs of the console blocks: lines after `$ ` until the next one."""
    pairs = []
    for block in BLOCK.findall(text):
        command, output = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    pairs.append((command, "\n".join(output)))
                command, output = line[2:], []
            else:
                output.append(line)
        if command is not None:
            pairs.append((command, "\n".join(output)))
    return pairs


def run(command: str) -> str:
    """Run a documented command from the project root; its standard output, then its errors."""
    python_gdl = f"{sys.executable} -m gdl "
    shell = re.sub(r"(^|\| )gdl ", lambda m: m.group(1) + python_gdl, command)
    done = subprocess.run(["bash", "-c", shell], cwd=ROOT, capture_output=True, text=True, timeout=300)
    return (done.stdout + done.stderr).rstrip("\n")


def normal(text: str) -> str:
    """The text with the times, which differ from run to run, blotted out."""
    text = re.sub(r"\b\d+\.\d+ s\b", "T s", text)
    return re.sub(r'"seconds": [0-9.e-]+', '"seconds": T', text)


@pytest.mark.parametrize("command, shown", examples(TUTORIAL.read_text()), ids=lambda v: v if v.startswith(("gdl", "printf")) else "")
def test_tutorial_commands_print_what_the_tutorial_shows(command: str, shown: str) -> None:
    assert normal(run(command)) == normal(shown)


def test_the_reference_quotes_the_grammar_file_as_it_is() -> None:
    grammar = (ROOT / "gdl" / "grammar.lark").read_text().rstrip("\n")
    assert "```lark\n" + grammar + "\n```" in LANGUAGE.read_text()


def test_the_reference_lists_every_built_in_function() -> None:
    reference = LANGUAGE.read_text()
    missing = [name for name in BUILTINS if f"`{name}(" not in reference]
    assert missing == []


def test_the_reference_table_of_built_in_functions_is_the_table_of_the_language() -> None:
    reference = LANGUAGE.read_text()
    header = "## Built-in functions\n\n| function | value |\n|---|---|\n"
    rows = reference[reference.index(header) + len(header):].split("\n\n")[0]
    assert rows.splitlines() == [builtin.reference_row for builtin in TABLE]


def test_the_reference_lists_what_each_built_in_counts_against_the_item_limit() -> None:
    reference = LANGUAGE.read_text()
    limits = reference[reference.index("## Limits"):reference.index("## Safety")]
    missing = [b.name for b in TABLE if b.counts and b.counts not in limits]
    assert missing == []


def update() -> None:
    """Rewrite each console block of the tutorial with the commands' real output."""
    text = TUTORIAL.read_text()

    def fill(match: re.Match[str]) -> str:
        lines = []
        for command, _ in examples(match.group(0)):
            lines.append("$ " + command)
            lines.append(run(command))
        return "```console\n" + "\n".join(lines) + "\n```"

    TUTORIAL.write_text(BLOCK.sub(fill, text))


if __name__ == "__main__" and sys.argv[1:] == ["--update"]:
    update()
