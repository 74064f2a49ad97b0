"""After the screen closes: what a player reads on the normal terminal (how the game
ended, where its log is, how to come back) and the exit status that says the same to
scripts (README, "Exit status")."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import textwrap
from pathlib import Path

from chkobba_p2p import Outcome
from chkobba_p2p.text import safe_text

from .event_words import outcome_error, words
from .i18n import Translator

__all__ = ["EXIT_DONE", "EXIT_CRASH", "EXIT_NO_GAME", "EXIT_ABORTED", "EXIT_AWAY", "EXIT_LEFT",
           "finish", "command_lines", "saved_elsewhere_lines"]

#: The exit statuses (README, "Exit status"): the match completed (or was resigned, or lost
#: on time: a result); the client crashed; no game (could not join, bad arguments); the game was
#: stopped (aborted); you stepped away (the game waits, the same command comes back);
#: you left on purpose (a game that does not wait for you, against local bots, or a lobby):
#: 0, as a match that ended; leaving is no interrupt (130 is only a Ctrl-C the program did
#: not ask about, cli/main.py).
EXIT_DONE, EXIT_CRASH, EXIT_NO_GAME, EXIT_ABORTED, EXIT_AWAY, EXIT_LEFT = 0, 1, 2, 3, 4, 0


def same_command() -> list[str]:
    """The command line this process was started with, to type again (its words,
    quoted for the shell)."""
    return ["chkobba", *map(shlex.quote, sys.argv[1:])]


def saved_elsewhere_lines(where: str, typed: str, say: str) -> list[str]:
    """A join that stopped for want of its saved game, when this identity saved one
    under ``where`` (the same host typed another way than ``typed``): ``say`` (the
    sentence, in the player's language), then the same command with ``where``."""
    words = same_command()
    quoted = shlex.quote(typed)
    words = [where if w == quoted else w for w in words] if quoted in words \
        else ["chkobba", "join", where]
    return [say, *command_lines(words, _columns())]


def _shown_path(path: Path | str) -> str:
    """A path as a person types it: under the home folder, ``~/...`` (shorter, so that
    it fits a line more often; the shell expands it)."""
    text = str(path)
    home = str(Path.home())
    if home not in ("", "/") and text.startswith(home + os.sep):
        return "~" + text[len(home):]
    return shlex.quote(text)


def command_lines(words: list[str], width: int, indent: str = "  ") -> list[str]:
    """A shell command to copy, on lines of ``width`` columns at most when its words
    allow: broken between words only (never inside a file name), each line but the last
    ending with `` \\`` so that the shell reads them as one command."""
    lines: list[str] = []
    cur = indent
    for word in words:
        if cur.strip() and len(cur) + 1 + len(word) + 2 > width:
            lines.append(cur + " \\")
            cur = indent * 2 + word
        else:
            cur = cur + (" " if cur.strip() else "") + word
    lines.append(cur)
    return lines


def _columns() -> int:
    return shutil.get_terminal_size((80, 24)).columns


def _print_log(t: Translator, log: Path | str, replay: bool) -> None:
    """Where the log is, and the command that audits it: each on a line of its own, so
    that a terminal of 80 columns does not break a file name in two."""
    print(t("over_log_title"))
    print("  " + _shown_path(log))
    if replay:
        print(t("over_replay_title"))
        for line in command_lines(["chkobba", "replay", _shown_path(log)], _columns()):
            print(line)


def finish(result, ui, address: str | None = None) -> int:
    """After the screen closed: say how it ended, on the normal terminal."""
    from ..tui.guest import RunResult
    from ..tui.model.presence import clock_text

    assert isinstance(result, RunResult)
    t: Translator = ui.t
    if result.crash:
        print(result.crash, file=sys.stderr)
        return EXIT_CRASH
    if result.error:  # the library refused what this machine asked: one line
        print_error(safe_text(result.error, 1000))
        return EXIT_NO_GAME
    o = result.outcome
    if result.timed_out:
        print_error(t("join_error", addr=address, why=t("join_timeout", n="?")), t)
        return EXIT_NO_GAME
    # No table, or a saved game that got no connection (an error, and nothing signed).
    if o is not None and not result.left and (o.table is None or (
            (o.error_reason or o.error_code) and o.aborted is None and o.done is None)):
        why = outcome_error(o, t)
        print_error(t("join_error", addr=address, why=why), t)
        return EXIT_NO_GAME
    log = (o.log_path if o is not None else None) or ui.log_path
    if log is not None and not Path(log).exists():
        log = None  # nothing was logged (the game never started)
    if result.left:
        stepped_away = getattr(result, "stepped_away", False)
        if stepped_away:
            # How long the game waits: this seat's allowance left, as its clocks read it.
            print(t("away_exit", t=clock_text(ui.allowance_left())))
            print(t("away_again"))
            for line in command_lines(same_command(), _columns()):
                print(line)
        elif not ui.state.started and ui.kind != "play":  # a lobby: no game was left
            print(t("left_host_lobby" if ui.kind == "host" else "left_lobby"))
        elif (o is not None and o.left is not None and o.left == o.seat) or (
                o is None and ui.kind == "play" and getattr(ui.state, "hand_number", 0)):
            # A leave while the match is played loses it (PROTOCOL.md 12.6): said.
            print(t("left_lost"))
        else:
            print(t("left"))
        if log:
            # A match that was left is over for good: how to audit it is what is left
            # to say (a seat that stepped away comes back instead).
            _print_log(t, log, replay=not stepped_away)
        return EXIT_AWAY if stepped_away else EXIT_LEFT
    if o is None:
        return EXIT_NO_GAME
    # Prose wraps between words at the terminal's width (never inside one).
    print(textwrap.fill(result_line(o, ui), max(40, _columns() - 1), break_long_words=False))
    if (note := ui.rematch_note()) is not None:
        print(textwrap.fill(note, max(40, _columns() - 1), break_long_words=False))
    if log:
        _print_log(t, log, replay=True)
    return EXIT_DONE if o.concluded else EXIT_ABORTED



def result_line(o: Outcome, ui) -> str:
    """How the match ended, in the player's language and words (the screen said the same:
    "You win 11-4!", never a side number)."""
    from ..tui.parts.render import line_text
    from ..tui.screens.dialogs import over_lines

    if not o.concluded and o.aborted is not None:
        from ..tui.parts.stopped import stop_sentences

        said = " ".join(text for _, text in stop_sentences(ui.view, o.aborted))
        return ui.t("over_stopped", why=said)
    if not o.concluded:
        return words(o, ui.t)
    lines = [line_text(x).strip() for x in over_lines(ui.view, o, None, 200)]
    return next((x for x in lines[1:] if x), words(o, ui.t))


def print_error(message: str, t: Translator | None = None) -> None:
    """``error: message`` on stderr, wrapped between words at the terminal's width (a
    terminal left to wrap it cuts a word, or leaves a lone parenthesis on a line);
    ``t``: the language ``message`` is in, for the word before it (a French sentence
    began "error: Impossible de rejoindre"; without ``t``, the library's English)."""
    message = (t("error_prefix") if t is not None else "error: ") + message
    # French puts a space before : ; ? and !: a no-break one while wrapping, so that no
    # line begins with the mark.
    for mark in ":;?!":
        message = message.replace(" " + mark, "\u00a0" + mark)
    text = textwrap.fill(message, max(40, _columns() - 1),
                         break_long_words=False, break_on_hyphens=False)
    print(text.replace("\u00a0", " "), file=sys.stderr)

