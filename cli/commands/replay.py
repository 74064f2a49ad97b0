"""``chkobba replay LOG``: audit a game's signed log and print the match, or the first
violation with the seat to blame."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

from chkobba_p2p.lowlevel import LogUnreadable
from chkobba_p2p.observe.audit import (
    EXIT_USAGE,
    VALID,
    AuditReport,
    audit_log,
)
from chkobba_p2p.observe.review import DEFAULT_LIMIT, DEFAULT_SAMPLES, Review, review_records

from ..outputs.replay_text import describe, review_lines
from ..support.term import can_show_symbols, keys_held, safe_lines, say_error
from ..words import coach
from ..words.event_words import words
from ..words.i18n import Translator, detect_lang, local_error_text, os_reason


def _out(line: str = "", *, to_stderr: bool = False) -> None:
    # The log's strings (names, the ruleset's name, an abort's why, the header) are the
    # file's words: shown, never obeyed by the terminal.  --json stays exact.
    # On a terminal, fitted to its width at words (it broke them where its edge fell).
    stream = sys.stderr if to_stderr else sys.stdout
    for piece in safe_lines(line, stream):
        print(piece, file=stream)


def _cannot_write(path: str, t: Translator) -> str | None:
    """Why ``path`` could not be written, as a few words in ``t``'s language; None when it
    looks writable.
    Asked before the audit, so that a typo in a folder fails at once, in one line, with
    nothing printed before it (writing may still fail later: that is said too)."""
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        return t("os_EISDIR")
    if not folder.is_dir():
        return t("cx_no_folder" if not folder.exists() else "cx_not_folder", folder=folder)
    if not os.access(target if target.exists() else folder, os.W_OK):
        return t("os_EACCES")
    return None


def _refuse(text: str) -> int:
    """``chkobba replay: text`` on stderr (already in the reader's language): exit 2."""
    say_error(f"chkobba replay: {text}")
    return EXIT_USAGE


def run(args: argparse.Namespace) -> int:
    # Every line a person reads in --lang (else the locale's), the refusals included;
    # what the library or the OS says without a code (a log it cannot read, why a file
    # could not be written) stays its English, inside the sentence.
    t = Translator(args.lang or detect_lang())
    for option, path in (("--json", args.json), ("--html", args.html)):
        if path and path != "-" and (why := _cannot_write(path, t)) is not None:
            return _refuse(t("cx_cannot_write_opt", path=path, option=option, why=why))
    workers = args.workers
    if workers is not None and workers < 0:
        return _refuse(t("cx_workers"))
    if args.jobs is not None:
        if args.jobs < 1 or workers is not None:
            return _refuse(t("cx_jobs"))
        workers = args.jobs - 1
    try:
        report = audit_log(args.log, workers=workers)
    except LogUnreadable as exc:  # by its code, in the reader's language
        return _refuse(local_error_text(t, exc))
    json_to_stdout = args.json == "-"
    # With --json -, stdout holds the records alone; everything else goes to stderr.
    err = json_to_stdout
    hands = [r for r in report.records if r["type"] == "hand"]
    if args.hand is not None and not 1 <= args.hand <= len(hands):
        return _refuse(t("cx_no_hand_1" if len(hands) == 1 else "cx_no_hand_n",
                         hand=args.hand, n=len(hands)))
    if args.view and not (sys.stdin.isatty() and sys.stdout.isatty()):
        return _refuse(t("cx_view_tty"))
    review = None
    if args.review:
        try:
            review = _review(args, report)
        except ValueError as exc:
            return _refuse(str(exc))
    symbols = not args.ascii and can_show_symbols(sys.stderr if err else sys.stdout)
    if args.view:
        _view(args, review)
        if review is not None and review.cut_short:
            _out(coach.limit_line(review, t), to_stderr=True)
    elif not args.quiet:
        for line in describe(report, hand=args.hand, symbols=symbols, review=review,
                             verbose=args.verbose, t=t):
            _out(line, to_stderr=err)
    if review is not None and not args.view:
        if not args.quiet:
            for line in review_lines(report, review, symbols, t):
                _out(line, to_stderr=err)
        elif review.cut_short:  # --quiet: the verdict alone, and on stderr this caveat
            _out(coach.limit_line(review, t), to_stderr=True)
    _out(words(report.result(), t), to_stderr=err)
    if getattr(args, "luck", False):
        try:
            _luck(args, report, review, err, t)
        except ValueError as exc:  # a bad --samples or --review-limit
            return _refuse(str(exc))
    if args.html:
        from ..outputs.replay_html import render_html  # only when asked: the page is a big module
        page = render_html(report, t.lang, _interrupted(args.log, report),
                           review=review)
        try:
            with open(args.html, "w", encoding="utf-8") as f:
                f.write(page)
        except OSError as exc:
            return _refuse(t("cx_cannot_write", path=args.html, why=os_reason(t, exc)))
        _out(t("rp_web_page", path=args.html), to_stderr=True)
    if args.json:
        if review is not None:  # the grades, for tools
            text = json.dumps({"log": report.path, "players": report.names,
                               **review.to_dict()}, ensure_ascii=False, indent=1) + "\n"
        else:
            text = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n"
                           for r in report.records)
        if json_to_stdout:
            sys.stdout.write(text)
        else:
            try:
                with open(args.json, "w", encoding="utf-8") as f:
                    f.write(text)
            except OSError as exc:
                return _refuse(t("cx_cannot_write", path=args.json, why=os_reason(t, exc)))
    return report.exit_code


def _review(args: argparse.Namespace, report: AuditReport) -> Review:
    """Grade the audited hands (``--seat``: those players only), with a progress bar on a
    terminal.  Raises ValueError for a name nobody has, or a bad --samples (its text in
    --lang, else the locale's language)."""
    names = report.names
    seats = None
    t = Translator(args.lang or detect_lang())
    if args.seat:
        unknown = [n for n in args.seat if n not in names]
        if unknown:
            raise ValueError(t("cx_no_seat", name=repr(unknown[0]), names=", ".join(names)))
        seats = [i for i, n in enumerate(names) if n in args.seat]
    samples = DEFAULT_SAMPLES if args.samples is None else args.samples
    if samples < 1:
        raise ValueError(t("cx_samples"))
    limit = getattr(args, "review_limit", DEFAULT_LIMIT)
    if limit is None or limit < 0:
        raise ValueError(t("cx_review_limit"))
    # --quiet: no progress either (the verdict line is all it prints).
    progress: Callable[[int, int], None] = coach.Progress(sys.stderr, t=t) \
        if not args.quiet else (lambda done, total: None)
    try:
        with keys_held():
            return review_records(report.records, seats=seats, samples=samples,
                                  seed=args.seed, progress=progress, limit=limit)
    finally:
        if isinstance(progress, coach.Progress):
            progress.close()  # a Ctrl-C midway: "interrupted" on a line of its own


def _luck(args: argparse.Namespace, report: AuditReport, review: Review | None,
          err: bool, t: Translator) -> None:
    """--luck: the account of luck against play (:mod:`..words.luck`), after the verdict; the
    coach's review of every seat (the one --review made, when it graded them all)."""
    from chkobba_p2p.observe.luck import luck_of

    from ..words.luck import luck_lines, writer_seat
    if review is None or args.seat:
        args.seat = None
        review = _review(args, report)
    luck = luck_of(report, review=review)
    for line in luck_lines(t, luck, report.names,
                           writer_seat(report)):
        _out(line, to_stderr=err)


def _view(args: argparse.Namespace, review: Review | None = None) -> None:
    from chkobba_p2p.lowlevel import read_log
    from chkobba_p2p.timeline import build_timeline

    from ..support.settings import four_colour_wanted
    from ..tui.screens.replay import ReplayViewer  # prompt_toolkit only when asked
    log = read_log(args.log)
    viewer = ReplayViewer(build_timeline(log.bodies, tail=log.tail),
                          lang=args.lang or detect_lang(),
                          color=not (args.no_color or os.environ.get("NO_COLOR")),
                          grades=review.grades if review is not None else (),
                          four_colour=four_colour_wanted(args))
    viewer.run()


def _interrupted(path: str, report: AuditReport) -> list[object]:
    """The public events of the hand a game stopped in (none for a complete match)."""
    if report.verdict == VALID and report.code is None:
        return []  # a whole match: every hand has its record
    from chkobba_p2p.lowlevel import read_log
    from chkobba_p2p.timeline import build_timeline
    log = read_log(path)
    tl = build_timeline(log.bodies, tail=log.tail)
    hands = sum(1 for r in report.records if r["type"] == "hand")
    return [f.event for f in tl.frames if f.hand == hands + 1]
