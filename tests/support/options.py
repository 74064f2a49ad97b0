"""A sub-command's options as its parser reads them (chkobba_cli.arguments), without
running the command."""

from __future__ import annotations

import argparse

from chkobba_cli.arguments import add_arguments


def parse_options(command: str, *argv: str) -> argparse.Namespace:
    """``chkobba COMMAND ARGV...``'s options."""
    parser = argparse.ArgumentParser()
    add_arguments(command, parser)
    return parser.parse_args(list(argv))
