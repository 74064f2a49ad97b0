"""``chkobba replay LOG``: audit a game's signed log and print the match, or the first
violation with the seat to blame."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

from chkobba_p2p import ErrorCode, Standing
from chkobba_p2p.game.cards import FigureConvention, card
from chkobba_p2p.game.seating import Seating
from chkobba_p2p.lowlevel import LogUnreadable
from chkobba_p2p.observe.audit import (
    EXIT_USAGE,
    INVALID,
    VALID,
    AbortClaim,
    AuditReport,
    audit_log,
)
from chkobba_p2p.observe.review import DEFAULT_LIMIT, DEFAULT_SAMPLES, Review, review_records

from .. import coach, scoresheet
from ..event_words import note_words, words
from ..i18n import Translator, abort_reason, card_letters, detect_lang, ruleset_text
from ..term import can_show_symbols, keys_held, safe_lines

_EN = Translator("en")  # the text's default language (run() follows --lang)


def _out(line: str = "", *, to_stderr: bool = False) -> None:
    # The log's strings (names, the ruleset's name, an abort's why, the header) are the
    # file's words: shown, never obeyed by the terminal.  --json stays exact.
    # On a terminal, fitted to its width at words (it broke them where its edge fell).
    stream = sys.stderr if to_stderr else sys.stdout
    for piece in safe_lines(line, stream):
        print(piece, file=stream)


def _cannot_write(path: str) -> str | None:
    """Why ``path`` could not be written, as a few words; None when it looks writable.
    Asked before the audit, so that a typo in a folder fails at once, in one line, with
    nothing printed before it (writing may still fail later: that is said too)."""
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        return "it is a folder"
    if not folder.is_dir():
        return f"no folder {folder}" if not folder.exists() else f"{folder} is not a folder"
    if not os.access(target if target.exists() else folder, os.W_OK):
        return "permission denied"
    return None


def run(args: argparse.Namespace) -> int:
    for option, path in (("--json", args.json), ("--html", args.html)):
        if path and path != "-" and (why := _cannot_write(path)) is not None:
            print(f"chkobba replay: cannot write {path} ({option}): {why}", file=sys.stderr)
            return EXIT_USAGE
    try:
        workers = args.workers
        if workers is not None and workers < 0:
            raise LogUnreadable("--workers must be 0 or more")
        if args.jobs is not None:
            if args.jobs < 1 or workers is not None:
                raise LogUnreadable("--jobs must be 1 or more, without --workers")
            workers = args.jobs - 1
        report = audit_log(args.log, workers=workers)
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
    if args.view and not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("chkobba replay: --view needs a terminal", file=sys.stderr)
        return EXIT_USAGE
    review = None
    if args.review:
        try:
            review = _review(args, report)
        except ValueError as exc:
            print(f"chkobba replay: {exc}", file=sys.stderr)
            return EXIT_USAGE
    symbols = not args.ascii and can_show_symbols(sys.stderr if err else sys.stdout)
    t = Translator(args.lang or detect_lang())  # the text, the verdict line, the page
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
            for line in _review_lines(report, review, symbols, t):
                _out(line, to_stderr=err)
        elif review.cut_short:  # --quiet: the verdict alone, and on stderr this caveat
            _out(coach.limit_line(review, t), to_stderr=True)
    _out(words(report.result(), t), to_stderr=err)
    if getattr(args, "luck", False):
        try:
            _luck(args, report, review, err, t)
        except ValueError as exc:  # a bad --samples or --review-limit
            print(f"chkobba replay: {exc}", file=sys.stderr)
            return EXIT_USAGE
    if args.html:
        from ..replay_html import render_html  # only when asked: the page is a big module
        page = render_html(report, t.lang, _interrupted(args.log, report),
                           review=review)
        try:
            with open(args.html, "w", encoding="utf-8") as f:
                f.write(page)
        except OSError as exc:
            print(f"chkobba replay: cannot write {args.html}: {exc.strerror}", file=sys.stderr)
            return EXIT_USAGE
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
                print(f"chkobba replay: cannot write {args.json}: {exc.strerror}",
                      file=sys.stderr)
                return EXIT_USAGE
    return report.exit_code


def _review(args: argparse.Namespace, report: AuditReport) -> Review:
    """Grade the audited hands (``--seat``: those players only), with a progress bar on a
    terminal.  Raises ValueError for a name nobody has, or a bad --samples."""
    names = report.names
    seats = None
    if args.seat:
        unknown = [n for n in args.seat if n not in names]
        if unknown:
            raise ValueError(f"--seat {unknown[0]!r}: no such player (the players: "
                             f"{', '.join(names)})")
        seats = [i for i, n in enumerate(names) if n in args.seat]
    samples = DEFAULT_SAMPLES if args.samples is None else args.samples
    if samples < 1:
        raise ValueError("--samples must be 1 or more")
    limit = getattr(args, "review_limit", DEFAULT_LIMIT)
    if limit is None or limit < 0:
        raise ValueError("--review-limit must be 0 (no limit) or more")
    # --quiet: no progress either (the verdict line is all it prints).
    t = Translator(args.lang or detect_lang())
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
    """--luck: the account of luck against play (:mod:`.luck`), after the verdict; the
    coach's review of every seat (the one --review made, when it graded them all)."""
    from chkobba_p2p.observe.luck import luck_of

    from ..luck import luck_lines, writer_seat
    if review is None or args.seat:
        args.seat = None
        review = _review(args, report)
    luck = luck_of(report, review=review)
    for line in luck_lines(t, luck, report.names,
                           writer_seat(report)):
        _out(line, to_stderr=err)


def _review_lines(report: AuditReport, review: Review, symbols: bool,
                  t: Translator = _EN) -> list[str]:
    table = report.table
    if table is None:
        return []
    sp = _Speaker(report.names, table.rules.figures, symbols, t)
    return coach.review_lines(review, report.names, sp.card, t)


def _view(args: argparse.Namespace, review: Review | None = None) -> None:
    from chkobba_p2p.lowlevel import read_log
    from chkobba_p2p.timeline import build_timeline

    from ..settings import four_colour_wanted
    from ..tui.replay import ReplayViewer  # prompt_toolkit only when asked
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


def _side(side: int, players: int, names: list[str]) -> str:
    """A side in people's words: a name at 2 and 3 players, "hana & sami" at 4."""
    return " & ".join(names[s] for s in Seating.of(players).seats_of(side))


class _Speaker:
    """Names and cards as the game showed them: seat names, and the card notation of the
    table's figures (``J♣``), or its ASCII form (``JC``) when symbols cannot be shown, in
    ``t``'s language's figure letters (``V♣`` in French)."""

    def __init__(self, names: list[str], figures: FigureConvention, symbols: bool,
                 t: Translator = _EN) -> None:
        self.names = names
        self.figures = figures
        self.symbols = symbols
        self.t = t

    def who(self, seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return self.t("vd_nobody") if seat is None else self.t("ab_seat", n=seat)

    def card(self, text: object) -> str:
        if not isinstance(text, str):
            return "??"
        try:  # French figure letters in French (R/D/V), as the table shows them
            return card_letters(card(text).label(self.figures, self.symbols), self.t.lang)
        except ValueError:
            return text

    def cards(self, texts: list) -> str:
        return " ".join(self.card(c) for c in texts)


def _hand_lines(r: dict, sp: _Speaker, players: int, review: Review | None = None
                ) -> list[str]:
    """A hand record, play by play, with the players' names and the game's cards (and the
    coach's grade of each decision, with ``review``)."""
    grades = {(g.kind, g.number): g for g in review.grades if g.hand == r["number"]} \
        if review is not None else {}

    def graded(kind: str, number: int) -> str:
        g = grades.get((kind, number))
        # English keeps the plain text's ASCII grade; another language the screen's words.
        t = None if sp.t.lang == "en" else sp.t
        return f"  [{coach.short_grade(g, sp.card, t)}]" if g is not None else ""
    t = sp.t
    # The first column, its words padded to the longest ("draw  ", "cut   ").
    col = {k: t(f"rp_col_{k}") for k in ("draw", "deal", "cut", "play", "end")}
    width = max(map(len, col.values())) + 2

    def head(kind: str) -> str:
        return "  " + col[kind].ljust(width)
    plays = 0
    out = [t("rp_hand_deals", n=r["number"], dealer=sp.who(r["dealer"]),
             cutter=sp.who(r["cutter"]))]
    drawn: object = None  # the cut's card, known once the hand is revealed
    for i, rd in enumerate(r.get("redeals", []), 1):
        out.append("  " + t("rp_redeal", n=i, cards=sp.cards(rd["table"])))
    for ev in r["events"]:
        (kind, b), = ev.items()
        if kind == "deal":
            if b["draw"] and b["cards"]:
                drawn = b["cards"][0]
            by: dict[str, list[str]] = {}
            for who, c in zip(b["to"], b["cards"], strict=True):
                by.setdefault(t("rp_table") if who is None else sp.who(who), []).append(
                    sp.card(c) if c else "??")
            what = "; ".join(t("rp_cards_of", who=k, cards=" ".join(v)) for k, v in by.items())
            out.append(head("draw" if b["draw"] else "deal") + what)
        elif kind == "cut":
            if b["keep"]:
                did = t("rp_keeps", who=sp.who(b["seat"]), card=sp.card(drawn)) if drawn \
                    else t("rp_keeps_drawn", who=sp.who(b["seat"]))
            else:
                did = t("rp_places", who=sp.who(b["seat"]), card=sp.card(b["card"]))
            out.append(head("cut") + did + graded("cut", 0))
        elif kind == "play":
            take = t("rp_takes", cards=" + ".join(sp.card(c) for c in b["capture"])) \
                if b["capture"] else t("rp_stays")
            plays += 1
            out.append(head("play") + t("rp_plays", who=sp.who(b["seat"]),
                                        card=sp.card(b["card"]), take=take)
                       + ("  CHKOBBA" if b["chkobba"] else "") + graded("play", plays))
        elif kind == "sweep" and b["cards"]:
            out.append(head("end") + t("rp_rest", who=sp.who(b["seat"]),
                                       cards=sp.cards(b["cards"])))
    out.extend("  " + line for line in _score_lines(r, sp, players))
    return out


def _count(t: Translator, n: int, key: str) -> str:
    """``1 card``, ``3 cards``: ``rp_KEY_1`` for one, ``rp_KEY_n`` for any other number."""
    return t(f"rp_{key}_1" if n == 1 else f"rp_{key}_n", n=n)


def _score_lines(r: dict, sp: _Speaker, players: int) -> list[str]:
    """A hand's points, per side, by name."""
    s, t = r["score"], sp.t
    cats = s["categories"]
    sides = range(len(s["points"]))
    names = [_side(i, players, sp.names) for i in sides]
    counts = []
    for i in sides:
        parts = [_count(t, s["cards"][i], "cards"),
                 _count(t, s["diamonds"][i], "diamonds"),
                 _count(t, s["sevens"][i], "sevens")]
        if "barmila" in cats:
            parts.append(_count(t, s["sixes"][i], "sixes"))
        if s["chkobbas"][i]:
            parts.append(_count(t, s["chkobbas"][i], "chkobbas"))
        counts.append(t("rp_counts", who=names[i], counts=", ".join(parts)))
    won = ", ".join(f"{cat} {t('rp_beji') if w is None else names[w]}"
                    for cat, w in cats.items())
    pts = ", ".join(f"{names[i]} {s['points'][i]}" for i in sides)
    tot = ", ".join(f"{names[i]} {r['totals'][i]}" for i in sides)
    return counts + [t("rp_points", won=won, points=pts, totals=tot)]


def _sheet(report: AuditReport, names: list[str], players: int,
           t: Translator = _EN) -> list[str]:
    """The score sheet: every hand's categories and points per side, the totals."""
    hands = [scoresheet.from_record(r) for r in report.records if r["type"] == "hand"]
    if not hands:
        return []
    sides = [_side(i, players, names) for i in range(len(hands[0].points))]
    return [t("rp_sheet")] + ["  " + line for line in
                              scoresheet.sheet_lines(hands, sides, t)]


def _when(report: AuditReport, t: Translator = _EN) -> str:
    """When the game stopped, as a player counts: the hand being played (the hands the
    audit completed, plus the one under way), or before the first deal."""
    if any(r["type"] == "match" for r in report.records):
        return t("rp_after_match")
    if report.first_dealer is None:
        return t("rp_before_first")
    done = sum(1 for r in report.records if r["type"] == "hand")
    return t("rp_during_hand", n=done + 1)


def stop_line(a: AbortClaim, who: Callable[[int], str], when: str,
              t: Translator = _EN) -> str:
    """Why the game stopped, for a person: names, the hand, a reason in words (never a
    wire code or the signer's text with seat numbers, which ``--json`` and the web page
    keep), the log's entry last for whoever checks it.  An abort is its signer's word:
    only what the log shows is stated as fact."""
    try:
        code = ErrorCode[a.code.upper()]
        why = abort_reason(t, code)
    except KeyError:
        why = abort_reason(t, ErrorCode.PROTOCOL_VIOLATION, unknown=a.code)
    by = who(a.by_seat)
    at = t("sl_at", n=a.index)
    blamed = None if a.blamed is None else who(a.blamed)
    if blamed is None:
        return t("sl_nobody", by=by, when=when, why=why, at=at)
    if a.code == "resigned" and a.blamed == a.by_seat:
        return t("sl_resigned", by=by, when=when, at=at)
    if a.on_time:
        return t("sl_on_time", late=blamed, by=by, when=when, at=at)
    if a.standing == Standing.SELF:
        return t("sl_ran_out" if a.code == "timeout" else "sl_left", by=by, when=when, at=at)
    if a.standing == Standing.PROVEN:
        return t("sl_proven", by=by, blamed=blamed, when=when, why=why, at=at)
    said = t("sl_says", by=by, blamed=blamed, when=when, why=why)
    if a.standing == Standing.OWED:
        return t("sl_owed", said=said, blamed=blamed, by=by, at=at)
    if a.standing == Standing.REFUTED:
        return t("sl_refuted", said=said, at=at)
    if a.standing == Standing.DISPUTED:
        return t("sl_disputed", said=said, at=at)
    return t("sl_claimed", said=said, at=at)


def describe(report: AuditReport, hand: int | None = None, symbols: bool = True,
             review: Review | None = None, verbose: bool = False,
             t: Translator = _EN) -> list[str]:
    """The match as text: table, first dealer, every hand's points, totals, winner, in
    the players' names, the game's card notation and ``t``'s language.  ``verbose``: also
    each abort as signed (its wire code and its signer's own text)."""
    out = [t("rp_log", path=report.path)]
    h = report.header
    if h.get("spectator") is True:
        out.append(t("rp_by_spectator", name=h.get("name", "?"),
                     software=h.get("software", "?"), created=h.get("created", "?")))
    table = report.table
    names = [s.name for s in table.seats] if table is not None else []
    if isinstance(h.get("seat"), int):
        writer = names[h["seat"]] if 0 <= h["seat"] < len(names) \
            else t("ab_seat", n=h["seat"])
        out.append(t("rp_by_peer", writer=writer, software=h.get("software", "?"),
                     created=h.get("created", "?")))
    if table is None:
        return out
    sp = _Speaker(names, table.rules.figures, symbols, t)
    proofs = "shuffle-proof/v1" in table.caps
    out.append(t("rp_game_proofs" if proofs else "rp_game_no_proofs", game=table.game.hex(),
                 n=table.players, rules=ruleset_text(t, table.rules)))
    for s in table.seats:
        partner = table.seating.partner_of(s.seat)
        side = t("rp_partner", name=names[partner]) if partner is not None else ""
        out.append("  " + t("rp_seat", name=s.name, fp=s.fingerprint, partner=side))
    for d in report.draws:
        out.append(t("rp_draw", draws=", ".join(f"{sp.who(s)} {sp.card(str(c))}"
                                                 for s, c in sorted(d.items()))))
    if report.first_dealer is not None:
        out.append(t("rp_first_dealer", who=sp.who(report.first_dealer)))
    for r in report.records:
        if r["type"] == "hand":
            if hand is not None and r["number"] != hand:
                continue
            if hand is not None:
                out.extend(_hand_lines(r, sp, table.players, review))
                continue
            redeals = t("rp_redealt", times=_count(t, len(r["redeals"]), "times")) \
                if r["redeals"] else ""
            out.append(t("rp_hand", n=r["number"], dealer=sp.who(r["dealer"]),
                         redeals=redeals))
            out.extend("  " + line for line in _score_lines(r, sp, table.players))
        elif hand is None:
            tot = ", ".join(f"{_side(i, table.players, names)} {x}"
                            for i, x in enumerate(r["totals"]))
            out.append(t("rp_result", hands=_count(t, r["hands"], "hands"), totals=tot))
    if hand is None:
        out.extend(_sheet(report, names, table.players, t))
    for w in report.warnings:
        out.append(t("rp_warning", warning=note_words(w, t, sp.who)))
    for a in report.aborts:
        out.append(stop_line(a, sp.who, _when(report, t), t))
        if verbose:
            out.append("  " + t("rp_as_signed", n=a.index, said=words(a, t, name=sp.who)))
    if report.offending:
        out.append(t("rp_offending", n=report.entry, entry=report.offending))
    if report.verdict == INVALID and report.records and hand is None:
        out.append(t("rp_before_violation"))
    if report.verdict == VALID and report.winner is not None and hand is None:
        out.append(t("rp_winner", side=_side(report.winner, table.players, names)))
    return out
