"""Every sub-command's arguments, declared without importing the library.

``chkobba SUB --help`` (and a usage error) must cost no more than starting Python
(issue 29): this module imports the standard library only, and the names and bounds
the options need (levels, presets, variants, the default port...) are copies in
:mod:`.options.peer` and :mod:`.options.rules`, checked against the library's by
``tests/client/test_cli_main.py``.  :mod:`.main` sets each command's ``func``, which imports the
command's own module only when it runs.
"""

from __future__ import annotations

import argparse
import textwrap

from .options.peer import (
    ARENA_LEVELS,
    FIGURES,
    LANGS,
    LEVELS,
    REVIEW_LIMIT,
    REVIEW_SAMPLES,
    TABLE_SHAPES,
    add_discovery_options,
    add_host_options,
    add_peer_options,
    add_tor_options,
    common_options,
    seconds,
)
from .options.rules import add_rules_arguments

__all__ = ["add_arguments", "EXIT_VALID", "EXIT_INVALID", "EXIT_USAGE", "EXIT_INCOMPLETE",
           "EXIT_UNSUPPORTED"]

#: ``chkobba replay``'s exit status (copies of :mod:`chkobba_p2p.observe.audit`'s); ``chkobba
#: watch`` ends with the same ones.
EXIT_VALID, EXIT_INVALID, EXIT_USAGE, EXIT_INCOMPLETE, EXIT_UNSUPPORTED = 0, 1, 2, 3, 4


def add_arguments(command: str, p: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``command`` on its parser ``p`` (see :mod:`.main`)."""
    {
        "play": _play_arguments, "host": _host_arguments, "join": _join_arguments,
        "bot": _bot_arguments, "replay": _replay_arguments, "watch": _watch_arguments,
        "simulate": _simulate_arguments, "arena": _arena_arguments,
        "history": _history_arguments,
    }[command](p)


# ------------------------------------------------------------- the terminal client


def _display(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", choices=LANGS, default=None,
                   help="language of the screen (default: from the locale)")
    p.add_argument("--figures", choices=[*FIGURES, "values"],
                   default=None,
                   help="figure names: tunisian (Queen 8, Jack 9), french (Jack 8, Queen 9) "
                        "or values (8, 9, 10 as numbers: 10♠); default: the table's rules")
    p.add_argument("--ascii", action="store_true",
                   help="suit letters (7D) and plain boxes instead of symbols (7♦)")
    p.add_argument("--no-color", action="store_true",
                   help="no colours (also when NO_COLOR is set)")
    _four_colour(p)
    p.add_argument("--pace", type=_pace, default=0.7, metavar="SECONDS",
                   help="how long another player's move stays on screen before the table "
                        "changes (default 0.7; 0: at once). Only the picture waits, never "
                        "the game")


def _four_colour(p: argparse.ArgumentParser) -> None:
    p.add_argument("--four-colour", dest="four_colour",
                   action=argparse.BooleanOptionalAction, default=None,
                   help="a four-colour deck: spades black, hearts red, diamonds blue, "
                        "clubs green (remembered in settings.json; --no-four-colour: red "
                        "and black again)")


def _pace(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError("the pace is 0 to 10 seconds")
    return value


#: What the full-screen commands' help says of playing (the screen's ? says it all).
_HOW_TO_PLAY = """\
at the table:
  1-9, or <- -> and Enter   play that card of your hand; if it can take more
                            than one way, pick what it takes (arrows, Enter;
                            Esc: back)
  a click                   on a card of your hand plays it; on a table
                            card, picks the capture that takes it
  h                         hints: what each of your cards would take
  s                         the score sheet of the match so far
  k / p                     keep / place the card you drew, as the cutter
  t  chat    ? or F1  every key, the game's words
  q                         leave (against bots: the match ends); at a table
                            of people: step away (the game waits) or resign
Only legal plays are offered (a card takes one of its rank before any sum).
"""


def _play_arguments(p: argparse.ArgumentParser) -> None:
    levels = sorted(LEVELS)
    p.description = "A full-screen match against bot peers on this machine."
    p.epilog = _HOW_TO_PLAY
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument("--players", type=int, choices=TABLE_SHAPES, default=2,
                   help="2 players, 3 each for themselves, or 4 in two teams (default 2)")
    p.add_argument("--bots", default="greedy", choices=levels,
                   help="the bots' level, not a number: every other seat is a bot "
                        "(default greedy; expert searches 200 ms a move); in 'chkobba "
                        "host', --bots N is a number of seats and --level their level")
    p.add_argument("--seed", type=int, default=None,
                   help="seed the bots' play style (the deal stays cryptographic)")
    p.add_argument("--name", default=None,
                   help="your name at the table (default: the one remembered, asked on the "
                        "first run)")
    p.add_argument("--identity", metavar="FILE",
                   help="your identity key file (default: your one key, the one 'host' "
                        "and 'join' use, so that your matches against the bots count in "
                        "'chkobba history --ratings' as yours)")
    p.add_argument("--log", metavar="FILE", help="transcript log path (default: data dir)")
    add_rules_arguments(p)
    _display(p)
    _bell(p)


def _bell(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-bell", action="store_true",
                   help="no terminal bell when the turn comes back to you (also: "
                        '"bell": false in settings.json)')
    # Beside the bell: the commands that draw a table a player clicks.
    p.add_argument("--mouse", dest="mouse", action=argparse.BooleanOptionalAction,
                   default=None,
                   help="click a card to play it (the default); --no-mouse leaves the "
                        "mouse to the terminal during play too, to select and copy text "
                        "(remembered in settings.json)")


def _host_arguments(p: argparse.ArgumentParser) -> None:
    p.description = textwrap.fill(
        "Open a table for friends: the screen shows the address to give them and each "
        "seat's key fingerprint; the deal starts when everyone has checked the "
        "fingerprints and pressed Enter. --bots N fills seats with bots; --headless hosts "
        "without a screen.", 79)
    p.epilog = _HOW_TO_PLAY
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    add_host_options(p)
    _display(p)
    _bell(p)
    p.set_defaults(name_default="host")


def _join_arguments(p: argparse.ArgumentParser) -> None:
    p.description = textwrap.fill(
        "Sit at a table: HOST, HOST:PORT, [IPv6]:PORT or a join code HOST:PORT#KEY (no "
        "address: pick a table announced on the LAN; NAME.onion:PORT#KEY: through Tor). "
        "Check the fingerprints with the other players, then press Enter.", 79)
    p.epilog = _HOW_TO_PLAY
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument("address", nargs="?", help="HOST[:PORT] or a join code HOST:PORT#KEY "
                   "(HOST:PORT#KEY+SECRET at a table with a secret)")
    p.add_argument("--secret", type=_secret, default=None, metavar="SECRET",
                   help="the table's secret, if the host gave it apart from the join code "
                        "(or for a table picked on the LAN)")
    add_discovery_options(p)
    p.add_argument("--connect-timeout", type=seconds(0), default=15.0, metavar="S",
                   help="seconds to reach the table before giving up (default 15; at "
                        "least 90 through Tor)")
    add_peer_options(p)
    _the_hosts_clocks(p)
    add_tor_options(p)
    _display(p)
    _bell(p)
    p.set_defaults(name_default="guest")


def _secret(text: str) -> str:
    """``--secret``: a table's seat secret, in its printed form (argparse's error else)."""
    from chkobba_p2p.address import parse_secret

    try:
        return parse_secret(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _the_hosts_clocks(p: argparse.ArgumentParser) -> None:
    """A joining peer's clocks are the host's: its welcome names them (PROTOCOL.md
    12.3), and a joiner's own values count only with a host that names none."""
    for action in p._actions:
        if action.dest in ("turn_timeout", "reconnect_timeout"):
            action.help = (f"{action.help}. At a host's table the host's value applies "
                           "(this one only if the host names none)")


# ------------------------------------------------------------- the other commands


def _bot_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("A peer without a screen, played by a bot: it joins the table at "
                     "HOST[:PORT] (or a join code HOST:PORT#KEY, which pins the host's "
                     "key; NAME.onion:PORT#KEY through Tor), plays the match and prints the "
                     "result.  With --identity, one process per seat: a second bot of that "
                     "identity at that table exits with status 2 and the first one's pid.")
    p.add_argument("address", help="HOST[:PORT], or a join code HOST:PORT#KEY "
                   "(NAME.onion:PORT#KEY too; HOST:PORT#KEY+SECRET at a table with a "
                   "secret); - to read it from stdin (a secret stays out of ps)")
    p.add_argument("--level", default="greedy", choices=sorted(LEVELS),
                   help="how the bot plays (default: %(default)s)")
    p.add_argument("--move-ms", type=float, default=None, metavar="MS",
                   help="thinking time per move (expert: default 200)")
    p.add_argument("--delay", type=seconds(0, zero=True), default=0.0, metavar="S",
                   help="seconds to wait before each move (to watch, or to test; default 0)")
    p.add_argument("--connect-retry", type=seconds(0, zero=True), default=0.0, metavar="S",
                   help="keep retrying a refused first connection this long (a bot "
                        "started together with its host; default 0: no retry)")
    p.add_argument("--keep-game", action="store_true",
                   help="a host's own bot (its key on stdin, from a host --headless --bots "
                        "at a fixed port): keep its saved game, so that the host's restart "
                        "resumes it (one process per seat), and never claim the host left")
    p.add_argument("--resuming", action="store_true",
                   help="with --keep-game: the host resumes its saved game; the bot resumes "
                        "its own, or leaves the seat to the process of it that plays it")
    common_options(p)
    for action in p._actions:  # a bot is asked nothing: its own words for --name
        if action.dest == "name":
            action.help = "the bot's name at the table (default: bot)"
        elif action.dest == "identity":
            action.help = ("identity key file (created if missing, mode 0600); with it the "
                           "bot can resume a crashed game, one process per seat")
    _the_hosts_clocks(p)
    add_tor_options(p)
    p.add_argument("--lang", choices=LANGS, default=None,
                   help="language of the error lines (default: from the locale); the "
                        "bot's lines about the match stay English, for logs and scripts")
    p.set_defaults(name_default="bot")


_REPLAY_EPILOG = f"""\
exit status:
  {EXIT_VALID}  valid and complete: every check passed and every seat signed the result
  {EXIT_INVALID}  invalid: tampered with, or a player cheated (the first violation and the
     seat to blame are printed)
  {EXIT_USAGE}  usage error, or the file is not a readable log
  {EXIT_INCOMPLETE}  incomplete: no violation, but the match did not finish (aborted game,
     truncated file)
  {EXIT_UNSUPPORTED}  cannot audit: the table plays a capability this version does not know
     (named); no player is blamed, nothing is concluded (a newer version can
     audit the log)
"""

_WATCH_EPILOG = f"""\
exit status (the verdict of what was watched, as chkobba replay's):
  {EXIT_VALID}  valid: every entry checked, the match completed (or ended by a resignation or
     a loss on time), or you left
  {EXIT_INVALID}  a cheat caught (the entry and the seat to blame are printed)
  {EXIT_USAGE}  no game to watch: refused, unreachable, or a usage error
  {EXIT_INCOMPLETE}  the game did not finish (stopped, or the watching ended before the end)
  {EXIT_UNSUPPORTED}  cannot audit: the table plays a capability this version does not know
     (named); no player is blamed, nothing is concluded
"""


def _replay_arguments(p: argparse.ArgumentParser) -> None:
    p.description = textwrap.fill(
        "Check everything in a game's log: every signature, the hash chain, the "
        "table (ruleset and its hash, seats and keys), every proof of the deal, the "
        "end-of-hand reveals and shuffle re-checks, every move against the rules and every "
        "score. Prints the match (hands, each hand's points, totals, the winner) or the "
        "first violation with the seat to blame and why. One peer's log is enough.", 79)
    p.epilog = _REPLAY_EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument("log", metavar="LOG", help="the .chklog file")
    p.add_argument("--json", metavar="FILE", help="write the game records (JSON Lines, the "
                   "format of chkobba simulate --record) to FILE, or to stdout with '-'")
    p.add_argument("--hand", metavar="N", type=int, help="show hand N play by play")
    p.add_argument("--quiet", action="store_true", help="print the verdict line only")
    p.add_argument("--verbose", action="store_true", help="also print each abort as "
                   "signed: its wire code and its signer's own words")
    p.add_argument("--ascii", action="store_true",
                   help="cards as letters (JC) instead of symbols (J♣)")
    p.add_argument("--html", metavar="FILE", help="also write the audited match as one web "
                   "page (players and key fingerprints, the verdict, every hand and play, the "
                   "score sheet) to FILE: self-contained, nothing fetched, readable on a phone")
    p.add_argument("--view", action="store_true",
                   help="step through the game on the terminal client's table: ←/→ a move, "
                   "PgUp/PgDn a hand, Home/End, s the score sheet, q to quit; the verdict in "
                   "a banner, an offending entry highlighted with the player it blames")
    p.add_argument("--lang", choices=LANGS, default=None,
                   help="language of the text, the verdict line, --html and --view "
                   "(default: from the locale)")
    p.add_argument("--no-color", action="store_true", help="--view without colours (also: "
                   "the NO_COLOR environment variable)")
    _four_colour(p)
    p.add_argument("--review", action="store_true",
                   help="the coach: grade every decision (each play and each cut) with the "
                   "expert's search from what that player saw then, and list the mistakes "
                   "and blunders with the better move and a summary per player; with "
                   "--view and --html the grades show beside each move; with --json FILE "
                   "the grades go to FILE (JSON) instead of the records")
    p.add_argument("--luck", action="store_true",
                   help="is it rigged? luck against play: the worth of the cards dealt to "
                   "each side, the points each side's play gave away against the coach's "
                   "best (the coach's review, within --review-limit), and whether every deal "
                   "was shuffled by all and checked (in --lang)")
    p.add_argument("--seat", metavar="NAME", action="append", default=None,
                   help="--review only this player (by name; again for more)")
    p.add_argument("--samples", type=int, default=None, metavar="N",
                   help="--review: sampled worlds per decision (default "
                   f"{REVIEW_SAMPLES}; more is steadier and slower)")
    p.add_argument("--seed", type=int, default=0, metavar="N",
                   help="--review: the sampling's seed (the same log and seed give the same "
                   "grades; default 0)")
    p.add_argument("--review-limit", type=int, default=REVIEW_LIMIT, metavar="N",
                   help=f"--review: grade at most the first N decisions (default "
                   f"{REVIEW_LIMIT}, a minute or two; 0: every one, which on a long log "
                   f"takes an hour)")
    p.add_argument("--jobs", "-j", dest="jobs", type=int, default=None, metavar="N",
                   help="processes that audit, this one included: the others check shuffle "
                   "proofs alongside (default: one per core, at most 5; 1: all in this "
                   "process). The verdict is the same either way")
    p.add_argument("--workers", dest="workers", type=int, default=None, metavar="N",
                   help="the processes beside this one that check shuffle proofs "
                   "(--jobs N is --workers N-1)")


def _watch_arguments(p: argparse.ArgumentParser) -> None:
    p.description = textwrap.fill(
        "Watch a game at HOST[:PORT] without a seat: the table as the players "
        "see it (hands face down until each hand ends), each hand's cards "
        "once its seeds are opened, the scores, and a cheat the moment it is "
        "caught (every entry is checked as 'chkobba replay' does). Keeps its "
        "own copy of the signed log. The host must have started with "
        "--spectators N.", 79)
    p.epilog = _WATCH_EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument("address", metavar="HOST[:PORT]",
                   help="the table to watch (NAME.onion:PORT through Tor)")
    p.add_argument("--name", default=None, help="the name the players see (default: the "
                   "one remembered, asked on the first run, as play does)")
    p.add_argument("--log", metavar="FILE", help="where to keep the log copy (default: the "
                   "data directory)")
    p.add_argument("--connect-retry", type=float, default=0.0, metavar="S",
                   help="keep retrying a refused first connection this long (default 0: no "
                        "retry)")
    p.add_argument("--text", action="store_true",
                   help="a line of commentary per event instead of the table (also when "
                        "the output is not a terminal)")
    _display(p)
    add_tor_options(p)


def _simulate_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Play whole matches between bots with the rules engine alone "
                     "(no network, no cryptographic deal). The same seed gives the same "
                     "matches.")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                   help="players at each table (default 2; 4 play in two teams)")
    p.add_argument("--games", type=int, default=1, help="number of matches (default 1)")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the whole run: the same seed plays the same games "
                        "(default 0)")
    add_rules_arguments(p)
    p.add_argument("--bots", default="greedy,random",
                   help="comma-separated bot levels, cycled over the seats "
                   f"(levels: {', '.join(LEVELS)}; default greedy,random)")
    p.add_argument("--record", metavar="FILE", help="write the game records (JSON Lines) here")
    _rules_line_lang(p)


def _arena_arguments(p: argparse.ArgumentParser) -> None:
    levels = list(ARENA_LEVELS)
    p.description = ("Duplicate matches between bot levels A and B: every deal is played "
                     "twice with the seats swapped. Prints A's match win rate and the mean "
                     "point margin per hand (A minus B), each with a 95% confidence "
                     "interval.")  # a description is printed as is (no %-formatting)
    p.add_argument("--a", choices=levels, metavar="LEVEL",
                   help=f"level A ({', '.join(levels)}; baseline, learned, handseer and "
                   "omniscient are for measurement only: baseline is an older expert that "
                   "neither guesses the hidden cards nor plays for the match score, "
                   "learned the expert guessing them with a model of play learned from "
                   "games, handseer the expert's search seeing every hand but not the "
                   "stock's order, omniscient the expert's search seeing every card)")
    p.add_argument("--b", choices=levels, metavar="LEVEL",
                   help="level B (same choices)")
    p.add_argument("--ladder", metavar="LEVELS",
                   help="instead of --a/--b: a round robin of these comma-separated "
                   "levels, each pair --games deals, and an Elo rating with its 95%% "
                   "interval for each (greedy, or the first level, fixed at 1500)")
    p.add_argument("--games", type=int, default=50,
                   help="duplicate deals; each is played twice, so 2 x N matches (default 50)")
    p.add_argument("--players", type=int, choices=TABLE_SHAPES, default=2,
                   help="players at each table (default 2; 3 each for themselves, A at "
                   "each seat in turn against two B; 4 play in two teams)")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the whole run: the same seed plays the same games "
                        "(default 0)")
    p.add_argument("--move-ms", type=float, default=None, metavar="M",
                   help="time budget per move for the searching levels, in ms "
                   "(default: each level's own, 200 for expert)")
    p.add_argument("--progress", action="store_true",
                   help="print a running tally on stderr after every deal")
    add_rules_arguments(p)
    _rules_line_lang(p)


def _rules_line_lang(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", choices=LANGS, default=None,
                   help="language of the rules line (default: from the locale)")


def _history_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Every match in the logs of the data directory (or DIR), newest first: date, "
        "table size, players by name and key fingerprint, the result and how the match "
        "ended, the audit's verdict, the log. Each log is audited (the audit is cached by "
        "the log's hash: the second run is quick). A log that fails its audit is listed as "
        "such and counts for nothing.")
    p.add_argument("dir", metavar="DIR", nargs="?", default=None,
                   help="the folder of logs (default: the data directory's logs)")
    p.add_argument("--with", dest="with_name", metavar="NAME",
                   help="only the matches with a player of this name (or key fingerprint)")
    p.add_argument("--since", metavar="DATE", help="only the matches since DATE "
                   "(2026-03-01, or a date and time)")
    p.add_argument("--players", type=int, choices=TABLE_SHAPES, help="only tables of N players")
    p.add_argument("--json", action="store_true", help="print JSON (one array) instead")
    p.add_argument("--verbose", action="store_true", help="list every copy of each match's "
                   "log (the bots' copies too; by default they are only counted)")
    p.add_argument("--ratings", metavar="LOGDIR", nargs="?", const="", default=None,
                   help="print everyone's Glicko-2 rating from the logs in LOGDIR (default: "
                   "DIR or the data directory's logs) instead of the matches: anyone given "
                   "the same logs gets the same numbers")
    p.add_argument("--lang", choices=LANGS, default=None,
                   help="language (default: from the locale)")
    p.add_argument("--no-cache", action="store_true",
                   help="audit every log again (the cache is neither read nor written)")
    p.add_argument("--luck", action="store_true",
                   help="is it rigged? after the list, luck against play in the newest match "
                   "listed (with --with, --since, --players: of those): the worth of the "
                   "cards dealt to each side, the points each side gave away against the "
                   "coach's best, and whether every deal was shuffled by all and checked")
