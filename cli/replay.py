"""``chkobba replay LOG``: audit a game's signed log and print the match, or the first
violation with the seat to blame."""

from __future__ import annotations

import argparse
import json
import sys

from chkobba_p2p.audit import (
    EXIT_INCOMPLETE,
    EXIT_INVALID,
    EXIT_USAGE,
    EXIT_VALID,
    INVALID,
    VALID,
    AuditReport,
    LogUnreadable,
    audit_log,
    hand_lines,
    score_lines,
)
from chkobba_p2p.record import teams
from chkobba_p2p.text import safe_text

from .i18n import LANGS, detect_lang

EPILOG = f"""\
exit status:
  {EXIT_VALID}  valid and complete: every check passed and every seat signed the result
  {EXIT_INVALID}  invalid: tampered with, or a player cheated (the first violation and the
     seat to blame are printed)
  {EXIT_USAGE}  usage error, or the file is not a readable log
  {EXIT_INCOMPLETE}  incomplete: no violation, but the match did not finish (aborted game,
     truncated file)
"""


def add_arguments(command: str, p: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``replay`` (see :mod:`.main`)."""
    p.description = (
        "Check everything in a game's log: every signature, the hash chain, the "
        "table (ruleset and its hash, seats and keys), every proof of the deal, the "
        "end-of-hand reveals and shuffle re-checks, every move against the rules and every "
        "score. Prints the match (hands, each hand's points, totals, the winner) or the "
        "first violation with the seat to blame and why. One peer's log is enough.")
    p.epilog = EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument("log", metavar="LOG", help="the .chklog file")
    p.add_argument("--json", metavar="FILE", help="write the game records (JSON Lines, the "
                   "format of chkobba simulate --record) to FILE, or to stdout with '-'")
    p.add_argument("--hand", metavar="N", type=int, help="show hand N play by play")
    p.add_argument("--quiet", action="store_true", help="print the verdict line only")
    p.add_argument("--html", metavar="FILE", help="also write the audited match as one web "
                   "page (players and key fingerprints, the verdict, every hand and play, the "
                   "score sheet) to FILE: self-contained, nothing fetched, readable on a phone")
    p.add_argument("--view", action="store_true",
                   help="step through the game on the terminal client's table: ←/→ a move, "
                   "PgUp/PgDn a hand, Home/End, s the score sheet, q to quit; the verdict in "
                   "a banner, an offending entry highlighted with the player it blames")
    p.add_argument("--lang", choices=LANGS, default=None,
                   help="language of --html and --view (default: from the locale)")
    p.add_argument("--no-color", action="store_true", help="--view without colours (also: "
                   "the NO_COLOR environment variable)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="processes that check shuffle proofs alongside the audit (default: 2 "
                   "with 3 cores or more, else 0). The verdict is the same either way")
    p.set_defaults(func=run)


def _out(line: str = "", *, to_stderr: bool = False) -> None:
    # The log's strings (names, the ruleset's name, an abort's why, the header) are the
    # file's words: shown, never obeyed by the terminal.  --json stays exact.
    print(safe_text(line), file=sys.stderr if to_stderr else sys.stdout)


def run(args: argparse.Namespace) -> int:
    try:
        if args.workers is not None and args.workers < 0:
            raise LogUnreadable("--workers must be 0 or more")
        report = audit_log(args.log, workers=args.workers)
    except LogUnreadable as exc:
        print(f"chkobba replay: {exc}", file=sys.stderr)
        return EXIT_USAGE
    json_to_stdout = args.json == "-"
    # With --json -, stdout holds the records alone; everything else goes to stderr.
    err = json_to_stdout
    hands = [r for r in report.records if r["type"] == "hand"]
    if args.hand is not None and not 1 <= args.hand <= len(hands):
        print(f"chkobba replay: no hand {args.hand} in this log "
              f"({len(hands)} hand{'s' if len(hands) != 1 else ''} audited)", file=sys.stderr)
        return EXIT_USAGE
    if args.view:
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            print("chkobba replay: --view needs a terminal", file=sys.stderr)
            return EXIT_USAGE
        _view(args)
    elif not args.quiet:
        for line in describe(report, hand=args.hand):
            _out(line, to_stderr=err)
    _out(report.summary(), to_stderr=err)
    if args.html:
        from .replay_html import render_html  # only when asked: the page is a big module
        page = render_html(report, args.lang or detect_lang(), _interrupted(args.log, report))
        try:
            with open(args.html, "w", encoding="utf-8") as f:
                f.write(page)
        except OSError as exc:
            print(f"chkobba replay: cannot write {args.html}: {exc.strerror}", file=sys.stderr)
            return EXIT_USAGE
        _out(f"web page: {args.html}", to_stderr=True)
    if args.json:
        text = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n"
                       for r in report.records)
        if json_to_stdout:
            sys.stdout.write(text)
        else:
            try:
                with open(args.json, "w", encoding="utf-8") as f:
                    f.write(text)
            except OSError as exc:
                print(f"chkobba replay: cannot write {args.json}: {exc.strerror}",
                      file=sys.stderr)
                return EXIT_USAGE
    return report.exit_code


def _view(args: argparse.Namespace) -> None:
    import os

    from chkobba_p2p.audit import read_log
    from chkobba_p2p.timeline import build_timeline

    from .tui.replay import ReplayViewer  # prompt_toolkit only when asked
    log = read_log(args.log)
    viewer = ReplayViewer(build_timeline(log.bodies, tail=log.tail),
                          lang=args.lang or detect_lang(),
                          color=not (args.no_color or os.environ.get("NO_COLOR")))
    viewer.run()


def _interrupted(path: str, report: AuditReport) -> list[object]:
    """The public events of the hand a game stopped in (none for a complete match)."""
    if report.verdict == VALID:
        return []
    from chkobba_p2p.audit import read_log
    from chkobba_p2p.timeline import build_timeline
    log = read_log(path)
    tl = build_timeline(log.bodies, tail=log.tail)
    hands = sum(1 for r in report.records if r["type"] == "hand")
    return [f.event for f in tl.frames if f.hand == hands + 1]


def _side(side: int, players: int) -> str:
    if players == 4:
        return f"team {side + 1} (seats {' & '.join(map(str, teams(players)[side]))})"
    return f"seat {side}"


def describe(report: AuditReport, hand: int | None = None) -> list[str]:
    """The match as text: table, first dealer, every hand's points, totals, winner."""
    out = [f"log: {report.path}"]
    h = report.header
    if isinstance(h.get("seat"), int):
        out.append(f"written by seat {h['seat']} ({h.get('name', '?')}), "
                   f"{h.get('software', '?')}, {h.get('created', '?')} (unsigned header)")
    elif h.get("spectator") is True:
        out.append(f"written by a spectator ({h.get('name', '?')}), "
                   f"{h.get('software', '?')}, {h.get('created', '?')} (unsigned header)")
    t = report.table
    if t is None:
        return out
    proofs = "with" if "shuffle-proof/v1" in t.caps else "without"
    out.append(f"game {t.game.hex()}: {t.players} players, {t.rules.describe()}; "
               f"shuffles {proofs} proofs")
    for s in t.seats:
        side = f", {_side(s.seat % 2, t.players)}" if t.players == 4 else ""
        out.append(f"  seat {s.seat}: {s.name} (key {s.fingerprint}{side})")
    for d in report.draws:
        out.append("first-dealer draw: " + ", ".join(f"seat {s} {c}" for s, c in
                                                     sorted(d.items())))
    if report.first_dealer is not None:
        out.append(f"first dealer: seat {report.first_dealer}")
    for r in report.records:
        if r["type"] == "hand":
            if hand is not None and r["number"] != hand:
                continue
            if hand is not None:
                out.extend(hand_lines(r))
                continue
            redeals = f", {len(r['redeals'])} redeal(s)" if r["redeals"] else ""
            out.append(f"hand {r['number']} (dealer seat {r['dealer']}{redeals}):")
            out.extend("  " + line for line in score_lines(r))
        elif hand is None:
            out.append(f"result: {r['result']} after {r['hands']} hands "
                       f"(totals {' / '.join(map(str, r['totals']))})")
    for w in report.warnings:
        out.append(f"warning: {w}")
    for a in report.aborts:
        # An abort is its signer's word: only what the log shows is stated as fact.
        out.append(f"abort at entry #{a.index} signed by seat {a.by_seat}: {a.describe()}")
    if report.offending:
        out.append(f"offending entry #{report.entry}: {report.offending}")
    if report.verdict == INVALID and report.records and hand is None:
        out.append("(the hands above were complete and correct before the violation)")
    if report.verdict == VALID and report.winner is not None and hand is None:
        out.append(f"winner: {_side(report.winner, t.players)}")
    return out
