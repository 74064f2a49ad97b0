"""After the screen closes: what a player reads on the normal terminal (how the game
ended, where its log is, how to come back) and the exit status that says the same to
scripts (README, "Exit status")."""

from __future__ import annotations

import errno
import shlex
import sys
from pathlib import Path

from chkobba_p2p.peer import Outcome
from chkobba_p2p.text import safe_text

from .i18n import Translator

__all__ = ["EXIT_DONE", "EXIT_CRASH", "EXIT_NO_GAME", "EXIT_ABORTED", "EXIT_LEFT", "finish"]

EXIT_DONE, EXIT_CRASH, EXIT_NO_GAME, EXIT_ABORTED, EXIT_LEFT = 0, 1, 2, 3, 130


def same_command() -> str:
    """The command line this process was started with, to type again."""
    return " ".join(["chkobba", *map(shlex.quote, sys.argv[1:])])


def finish(result, ui, address: str | None = None) -> int:
    """After the screen closed: say how it ended, on the normal terminal."""
    from .tui.guest import RunResult

    assert isinstance(result, RunResult)
    t: Translator = ui.t
    if result.crash:
        print(result.crash, file=sys.stderr)
        return EXIT_CRASH
    o = result.outcome
    if result.timed_out:
        print("error: " + t("join_error", addr=address, why=t("join_timeout", n="?")),
              file=sys.stderr)
        return EXIT_NO_GAME
    # No table, or a saved game that got no connection (an error, and nothing signed).
    if o is not None and not result.left and (o.table is None or (
            o.error and o.aborted is None and o.done is None)):
        why = explain(safe_text(o.error, 1000), t) if o.error else t("err_closed")
        print("error: " + t("join_error", addr=address, why=why), file=sys.stderr)
        return EXIT_NO_GAME
    log = (o.log_path if o is not None else None) or ui.log_path
    if log is not None and not Path(log).exists():
        log = None  # nothing was logged (the game never started)
    if result.left:
        if getattr(result, "stepped_away", False):
            print(t("away_exit"))
            print(t("away_again", cmd=same_command()))
        else:
            print(t("left"))
        if log:
            print(t("over_log", path=log))
        return EXIT_LEFT
    if o is None:
        return EXIT_NO_GAME
    print(result_line(o, ui))
    if log:
        print(t("over_log", path=log))
        print(t("over_replay", path=log))
    return EXIT_DONE if o.completed or o.resigned is not None else EXIT_ABORTED


def result_line(o: Outcome, ui) -> str:
    """How the match ended, in the player's language and words (the screen said the same:
    "You win 11-4!", never a side number)."""
    from .tui.dialogs import over_lines
    from .tui.render import line_text

    if o.done is None:
        return o.describe()
    lines = [line_text(x).strip() for x in over_lines(ui.view, o, None, 200)]
    return next((x for x in lines[1:] if x), o.describe())


def explain(error: str, t: Translator) -> str:
    """A library error string, with a plain sentence for the usual join failures."""
    low = error.lower()
    if "connect call failed" in low or "connection refused" in low or \
            "all attempts to connect" in low or f"errno {errno.ECONNREFUSED}" in low:
        return f"{t('err_refused_conn')} ({error})"
    if "every seat" in low or "table_full" in low:
        return f"{t('err_full')} ({error})"
    if "version" in low:
        return f"{t('err_version')} ({error})"
    return error
