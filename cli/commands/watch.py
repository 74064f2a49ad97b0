"""``chkobba watch HOST[:PORT]``: watch a table as a spectator, play by play: on a
full screen (:mod:`..tui.screens.watching`) or as plain commentary
(:mod:`..outputs.commentary`).

No seat, no key, no secret: the spectator sees what the table shows in public, each hand's
cards once its seeds open, and checks every entry as an auditor does (a cheat is shown the
moment it is caught).  It keeps its own copy of the signed log, which ``chkobba replay``
audits; leaving (Ctrl-C) does not affect the game.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import trio

from chkobba_p2p import (
    MAX_NAME,
    Spectator,
    TorFailed,
    WatchConfig,
    WatchOutcome,
    default_log_path,
    over_tor,
)
from chkobba_p2p.observe.verdict import INVALID, UNSUPPORTED, VALID, Verdict
from chkobba_p2p.text import safe_text

from ..arguments import EXIT_INCOMPLETE, EXIT_INVALID, EXIT_UNSUPPORTED, EXIT_VALID
from ..options.tor import join_tor_transport
from ..outputs.commentary import Commentary
from ..support.term import say_error
from ..words.event_words import connect_words, stop_words
from ..words.i18n import Translator, detect_lang, local_error_text
from ..words.tor_words import tor_failed_text, tor_status_text


def _name(args: argparse.Namespace) -> str | None:
    """``--name``, else the name remembered (``play``'s, asked once on a terminal and
    kept), else ``spectator``; None (after saying why) if ``--name`` is not a name."""
    from ..support.settings import player_name, valid_name
    from ..words.i18n import Translator

    if args.name is not None:
        name = valid_name(args.name)
        if name is None or name != args.name:
            t = Translator(args.lang or detect_lang())
            say_error(f"chkobba watch: {t('cx_watch_name', max=MAX_NAME)}")
            return None
        return name
    on_screen = sys.stdin.isatty() and sys.stdout.isatty()
    asked = player_name(None, Translator(args.lang or detect_lang())) if on_screen else None
    if asked is None:
        from ..support.settings import load
        asked = valid_name(load().get("name"))
    return (asked or "spectator")[:MAX_NAME]


#: The detail an honest host gives when every spectator's place is taken.
_TAKEN = re.compile(r'(\d+) spectators? already watching|every spectator.s place is taken')


def _refusal(outcome: WatchOutcome, lang: str = "en") -> str:
    """Why there was nothing to watch, in one sentence (the host's own words, made safe).
    A table closed to spectators said it three times ("admits no (more) spectators",
    the host's detail, then how a host admits them): once now, in the person's words."""
    t = Translator(lang)
    if outcome.error_code == "spectators_closed":
        # The host's own words after the code's (an honest host says how many watch).
        said = safe_text(str(outcome.error_data.get("host_text", "")), 300)
        taken = _TAKEN.search(said)
        if taken is None:  # no place at all (or a detail of no use): how a host opens one
            what = t("watch_closed")
        elif taken.group(1) is None:
            what = t("watch_taken")
        else:
            n = int(taken.group(1))
            what = t("watch_taken_1" if n == 1 else "watch_taken_n", n=n)
        return t("oe_refused", what=what)  # a refusal in a join's words
    # The OS's words, said for a person; any other case in the reader's words.
    return connect_words(outcome.error_reason, outcome.error_code, outcome.error_data, t)


def _said_refusal(outcome: WatchOutcome, lang: str) -> None:
    """The refusal on stderr, wrapped between words at the terminal's width."""
    import shutil
    import textwrap

    width = max(40, shutil.get_terminal_size((80, 24)).columns - 1)
    text = f"chkobba watch: {_refusal(outcome, lang)}"
    for mark in ":;?!":  # French spaces them: a no-break space keeps each off a line's start
        text = text.replace(" " + mark, "\u00a0" + mark)
    if sys.stderr.isatty():  # a terminal would cut words at its edge; a pipe: one line
        text = textwrap.fill(text, width, break_long_words=False, break_on_hyphens=False)
    print(text.replace("\u00a0", " "), file=sys.stderr)


def _tor_failed(lang: str, failed: TorFailed) -> None:
    """Tor could not be used: its sentence, wrapped between words at the terminal's
    width (a terminal left to wrap it cuts words)."""
    import shutil
    import textwrap

    width = max(40, shutil.get_terminal_size((80, 24)).columns - 1)
    print(textwrap.fill(f"chkobba watch: {tor_failed_text(Translator(lang), failed)}",
                        width, break_long_words=False, break_on_hyphens=False),
          file=sys.stderr)


def _screen(args: argparse.Namespace) -> bool:
    """The table on a full screen (a terminal, unless --text): else the commentary."""
    return not getattr(args, "text", False) and sys.stdin.isatty() and sys.stdout.isatty()


def run(args: argparse.Namespace) -> int:
    name = _name(args)
    if name is None:
        return 2
    log = Path(args.log) if args.log else default_log_path("watch")
    tor = join_tor_transport(args, args.address)  # a .onion table: through Tor
    if isinstance(tor, int):
        return tor
    lang = args.lang or detect_lang()
    try:
        config = WatchConfig(args.address, name=name, log_path=log,
                             connect_retry=args.connect_retry)
    except ValueError as exc:  # a malformed address (by its code, in the reader's language)
        say_error(f"chkobba watch: {local_error_text(Translator(lang), exc)}")
        return 2
    if tor is not None:
        config.transport = tor
        config.timeouts = over_tor(config.timeouts)

    failed: list[TorFailed] = []  # tor could not be used: nothing to watch (exit 2)

    async def watch(on_event, attach=None, said=None) -> WatchOutcome | None:
        """Watch, giving ``on_event`` every event; ``attach(spectator)``, when given, is
        called first (a screen reads the spectator's clocks and backlog); ``said``:
        where the lines of what tor does go, when through Tor."""
        spectator = Spectator(config, on_event)
        if attach is not None:
            attach(spectator)
        with trio.CancelScope() as scope:
            if tor is not None:
                def tor_event(ev: object) -> None:
                    if isinstance(ev, TorFailed):
                        failed.append(ev)
                        scope.cancel()
                    elif said is not None and (
                            text := tor_status_text(Translator(lang), ev,
                                                    joining=True)) is not None:
                        said(text)
                tor.tor.on_event = tor_event
            try:
                return await spectator.run()
            finally:
                if tor is not None:
                    await tor.aclose()
        return None

    if _screen(args):
        status = _run_screen(args, config, name, lang, watch)
        if failed:
            _tor_failed(lang, failed[0])
            return 2
        return status
    narrator = Commentary(lang=lang)
    outcome = trio.run(watch, narrator, None, narrator.say)
    if failed:
        _tor_failed(lang, failed[0])
        return 2
    assert outcome is not None  # only tor's failure cancels it
    if outcome.verdict is None:
        _said_refusal(outcome, lang)
        return 2
    # Always one line saying why the watching stopped (a host that sent something that
    # does not check out ends it with no verdict event of its own).
    narrator.say(narrator.t("wn_stopped", why=stop_words(
        outcome.stop_reason, outcome.stop_data, Translator(lang))))
    if outcome.log_path is not None:
        narrator.say(narrator.t("wn_log", path=outcome.log_path))
    return exit_status(outcome.verdict)


def _run_screen(args: argparse.Namespace, config: WatchConfig, name: str, lang: str,
                watch) -> int:
    """The spectator's table on a full screen (:mod:`..tui.screens.watching`)."""
    from ..support.player import color_wanted, figures_wanted
    from ..support.settings import four_colour_wanted
    from ..support.term import can_show_symbols
    from ..tui.screens.watching import WatchView, run_watch_screen

    symbols = not args.ascii and can_show_symbols()
    view = WatchView(lang=lang, symbols=symbols, figures=figures_wanted(args),
                     address=config.address, name=name, pace=args.pace,
                     four_colour=four_colour_wanted(args))
    outcome = run_watch_screen(view, lambda on_event: watch(on_event, view.attach),
                               color=color_wanted(args))
    narrator = Commentary(lang=lang)
    if outcome is not None and outcome.verdict is None:
        _said_refusal(outcome, lang)
        return 2
    if view.state.over or outcome is not None:
        # The end in words, as the screen said it (who won, the verdict and, when the
        # watching ended by itself, the log copy): the screen is gone after q.
        from ..tui.parts.render import line_text

        for line in view.end_lines(1000):
            narrator.say(line_text(line).strip())
    if outcome is None:  # the person left (the game may go on without us)
        if config.log_path is not None and config.log_path.exists():
            narrator.say(narrator.t("wn_log", path=config.log_path))
        return 0
    verdict = outcome.verdict
    assert verdict is not None  # refused above
    return exit_status(verdict)


def exit_status(verdict: Verdict) -> int:
    """``chkobba watch``'s exit status for the observer's verdict (as ``replay``'s):
    0 valid, 1 a cheat caught, 3 the game did not finish, 4 a table capability this
    version does not know (it cannot audit the match, and blames no one)."""
    return {VALID: EXIT_VALID, INVALID: EXIT_INVALID,
            UNSUPPORTED: EXIT_UNSUPPORTED}.get(verdict.verdict, EXIT_INCOMPLETE)
