"""The client's tree is by concern (docs/architecture.md): at its top only the command
table (``main.py``) and every command's options (``arguments.py``); every other module
sits in the folder of its concern (``commands/``, ``options/``, ``words/``, ``outputs/``,
``support/``, ``tui/``)."""

from __future__ import annotations

from pathlib import Path

import chkobba_cli

CLIENT = Path(chkobba_cli.__file__).parent
FOLDERS = {"commands", "options", "words", "outputs", "support", "tui"}


def test_the_clients_top_holds_only_the_command_table():
    top = {p.name for p in CLIENT.glob("*.py")}
    assert top == {"__init__.py", "main.py", "arguments.py"}


def test_every_folder_is_a_concern_the_architecture_names():
    folders = {p.name for p in CLIENT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == FOLDERS
    text = (CLIENT.parent / "docs" / "architecture.md")
    if text.exists():  # a source tree (an installed client has no docs beside it)
        said = text.read_text(encoding="utf-8")
        assert all(f"`{name}/`" in said for name in FOLDERS)
