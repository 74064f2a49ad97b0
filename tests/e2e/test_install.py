"""What ``pip install`` puts on a machine: the packages chkobba_p2p and chkobba_cli (the
folder cli/ under a name of ours, not a top-level ``cli`` that other distributions also
install) and the ``chkobba`` console script."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import tomllib
from pathlib import Path

import chkobba_p2p

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_distribution_installs_our_two_packages_and_the_command():
    dist = importlib.metadata.distribution("chkobba-p2p")
    assert set((dist.read_text("top_level.txt") or "").split()) == {"chkobba_p2p", "chkobba_cli"}
    scripts = {e.name: e.value for e in dist.entry_points if e.group == "console_scripts"}
    assert scripts == {"chkobba": "chkobba_cli.main:main"}


def test_import_cli_fails_and_chkobba_cli_works_outside_the_checkout(tmp_path):
    """From a directory that is not the checkout, in isolated mode (no PYTHONPATH, no user
    site), only what is installed can be imported."""
    code = (
        "import importlib.util, chkobba_cli, chkobba_cli.main, chkobba_p2p\n"
        "print(importlib.util.find_spec('cli'))\n"
        "print(chkobba_cli.__file__)\n"
    )
    run = subprocess.run([sys.executable, "-I", "-c", code], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    spec, where = run.stdout.split("\n")[:2]
    assert spec == "None"
    assert Path(where).resolve() == ROOT / "cli" / "__init__.py"
    script = Path(sys.executable).parent / "chkobba"
    run = subprocess.run([str(script), "--version"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60)
    assert (run.returncode, run.stdout.strip()) == (0, f"chkobba-p2p {chkobba_p2p.__version__}")


def test_every_package_folder_is_installed_under_its_name():
    """The packages are listed by hand (a folder installed under another name cannot be
    found automatically): a sub-package missing from the list would be missing from a
    wheel, although an editable install would still find it."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {name: ROOT / path for name, path in config.get("package-dir", {}).items()}
    folders.setdefault("chkobba_p2p", ROOT / "chkobba_p2p")
    assert folders == {"chkobba_p2p": ROOT / "chkobba_p2p", "chkobba_cli": ROOT / "cli"}
    on_disk = set()
    for name, folder in folders.items():
        for init in folder.rglob("__init__.py"):
            rel = init.parent.relative_to(folder).parts
            on_disk.add(".".join((name, *rel)))
    assert sorted(config["packages"]) == sorted(on_disk)


def test_every_data_file_of_the_package_is_declared_package_data():
    """A file beside the modules that is not Python (the learned model's weights, the
    typing marker) reaches a wheel only if pyproject names it: an editable install finds
    it either way, an installed one would fail to load it."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    declared = set(config["package-data"]["chkobba_p2p"])
    folder = ROOT / "chkobba_p2p"
    on_disk = {p.relative_to(folder).as_posix() for p in folder.rglob("*")
               if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts}
    assert on_disk == declared
    assert "bots/policy_weights.json" in declared
