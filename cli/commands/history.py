"""``chkobba history``: every match in the data directory's logs, newest first, and
``--ratings``: everyone's Glicko-2 rating from a folder of logs.  Everything comes from
the signed logs, each audited (and the audit cached: :mod:`chkobba_p2p.observe.history`)."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any, TextIO

from chkobba_p2p import data_dir
from chkobba_p2p.lowlevel import LogUnreadable
from chkobba_p2p.observe.audit import INCOMPLETE, INVALID, UNSUPPORTED, VALID
from chkobba_p2p.observe.history import (
    UNREADABLE,
    AuditCache,
    Game,
    Seat,
    Standing,
    disputes,
    games,
    index_logs,
    names_by_key,
    parse_date,
    record_against,
    standings,
    with_aliases,
)
from chkobba_p2p.observe.rating import POOLS, nearest_level

from ..support.identity import own_aliases, own_keys
from ..support.term import NBSP, fit_text, safe_lines, say_error, terminal_width
from ..words.event_words import words
from ..words.i18n import Translator, detect_lang, local_error_text, os_reason

EXIT_OK = 0
EXIT_USAGE = 2


def _out(line: str = "", stream: TextIO | None = None) -> None:
    # Names and reasons are the logs' words: shown, never obeyed by the terminal.  On a
    # terminal each line is fitted to its width, broken at words (the terminal broke
    # them where its edge fell: "[INCOMP" / "LETE]", "personn" / "e"), a path after a
    # "/"; into a file or a pipe, one line each, for grep.
    stream = stream or sys.stdout
    for piece in safe_lines(line, stream):
        print(piece, file=stream)


def _seat(seat: Seat, t: Translator, mine: Collection[bytes] = ()) -> str:
    """:func:`who` glued: a name never parted from its key fingerprint at a line's end
    ("erin" then "(6124-d68d-…)" read as two seats)."""
    return who(seat, t, mine).replace(" ", NBSP)


class Progress:
    """A progress bar on a terminal (nothing when ``stream`` is not one)."""

    WIDTH = 30

    def __init__(self, stream: TextIO, t: Translator) -> None:
        self.stream = stream
        self.t = t
        self.shown = False
        self.on = stream.isatty()

    def __call__(self, done: int, total: int) -> None:
        if not self.on or total <= 0:
            return
        self.stream.write("\r" + bar(done, total, self.WIDTH, self.t))
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * (self.WIDTH + 40) + "\r")
            self.stream.flush()


def bar(done: int, total: int, width: int, t: Translator) -> str:
    """``[#######.......] 12/40 logs audited``."""
    full = width * done // total
    return f"[{'#' * full}{'.' * (width - full)}] " + t("hi_progress", done=done, n=total)


def who(seat: Seat, t: Translator, mine: Collection[bytes] = ()) -> str:
    """``name (fingerprint)``, with the bot's level when one was vouched for, and
    ``you`` when the key is one of ``mine`` (this person's identity keys)."""
    bot = seat.bot
    tag = f", {t('hi_bot', level=t.level(bot))}" if bot else ""
    if seat.key in mine:
        tag += f", {t('hi_you')}"
    return f"{seat.name} ({seat.fingerprint}{tag})"


def lineup(g: Game, t: Translator) -> str:
    sides = [" & ".join(who(g.seats[s], t) for s in ss) for ss in g.sides]
    return f" {t('hi_vs')} ".join(sides)


def side_names(g: Game, side: int) -> str:
    return " & ".join(g.seats[s].name for s in g.sides[side])


def result(g: Game, t: Translator) -> str:
    """The result and how the match ended, in words."""
    lg = g.log
    if lg.verdict == UNREADABLE:
        return t("hi_unreadable")
    if lg.ending == "convicted":
        # The audit convicts a seat of an entry it signed: a loss for its side.
        r = lg.result
        b = r.blamed if r is not None else None
        name = g.seats[b].name if b is not None and 0 <= b < len(g.seats) else "?"
        if lg.winner is not None:
            return t("hi_won_convicted", side=side_names(g, lg.winner), name=name)
        if lg.loser is not None:
            return t("hi_convicted", side=side_names(g, lg.loser))
    if lg.verdict == INVALID:
        return t("hi_invalid")
    if lg.verdict == UNSUPPORTED:
        return t("hi_unsupported")
    w = lg.winner
    if lg.ending in ("points", "decided") and w is not None:
        # The winner's total first: "sami won 14–2".
        order = [w] + [i for i in range(len(lg.totals)) if i != w]
        if len(lg.totals) > 2 and w < len(lg.totals):  # 3 players: whose the others are
            rest = ", ".join(f"{side_names(g, i)} {lg.totals[i]}" for i in order[1:]
                             if i < len(g.sides))
            score = t("score_three", first=lg.totals[w], rest=rest)
        else:
            score = "–".join(str(lg.totals[i]) for i in order if i < len(lg.totals))
        key = "hi_won_decided" if lg.ending == "decided" else "hi_won_points"
        return t(key, side=side_names(g, w), score=score)
    if lg.ending == "resigned" and w is not None:
        return t("hi_won_resigned", side=side_names(g, w))
    if lg.ending == "on_time" and w is not None:
        return t("hi_won_on_time", side=side_names(g, w))
    if lg.ending == "left" and w is not None:
        # Name the seat that left: "the other side left", read in the leaver's own
        # history, sounded as if the winners had left.
        a = lg.result.abort if lg.result is not None else None
        if a is not None and 0 <= a.by_seat < len(g.seats):
            return t("hi_won_left_by", side=side_names(g, w), name=g.seats[a.by_seat].name)
        return t("hi_won_left", side=side_names(g, w))
    if lg.ending in ("resigned", "on_time", "left") and lg.loser is not None:
        return t(f"hi_{lg.ending}", side=side_names(g, lg.loser))
    return t(f"hi_{lg.ending}")


def verdict(g: Game, t: Translator) -> str:
    """The audit's verdict as a tag, in ``t``'s language ("VALID", "VALIDE")."""
    return t({VALID: "rh_valid", INVALID: "au_invalid", INCOMPLETE: "au_incomplete",
              UNSUPPORTED: "rh_unsupported"}.get(g.log.verdict, "hi_tag_unreadable"))


def matches_filter(g: Game, args: argparse.Namespace, since: Any) -> bool:
    if args.players is not None and g.players != args.players:
        return False
    if since is not None:
        d = parse_date(g.date) if g.date else None
        if d is None or d < since:
            return False
    if args.with_name:
        want = args.with_name.casefold()
        if not any(s.name.casefold() == want or s.fingerprint.startswith(want)
                   for s in g.seats):
            return False
    return True


def _own_copies(paths: tuple[str, ...], verbose: bool = False) -> tuple[list[str], int]:
    """The copies of a match to list, and how many bots' copies are only counted: a
    bot's copy (``NAME-botN.chklog``, written beside its player's own log by ``play``
    and ``host --bots``) is left out when that log is there too (``verbose``: every
    copy is listed)."""
    if verbose:
        return list(paths), 0
    there = set(paths)
    bots = [p for p in paths if (m := _BOT_COPY.search(p)) is not None
            and p[:m.start()] + ".chklog" in there]
    return [p for p in paths if p not in bots], len(bots)


_BOT_COPY = re.compile(r"-bot\d+\.chklog$")


def show_games(gs: list[Game], t: Translator, verbose: bool = False,
               mine: Collection[bytes] = ()) -> None:
    """Each match: its date, size, result and verdict, who played (``mine``: the keys
    marked as ``you``), and its log's copies."""
    for g in gs:
        date = g.date.replace("T", " ")[:16] if g.date else "?"
        size = t("hi_players", n=g.players) if g.players else "-"
        # Fitted at words to the terminal (_out): "[INCOMPLETE]" whole on the next line
        # rather than "[INCOMP" / "LETE]" cut by the terminal at its edge.
        _out(f"{date}  {size}  {result(g, t)}  [{verdict(g, t).replace(' ', NBSP)}]")
        if g.seats:
            for line in _lineup_lines(g, t, mine):
                _out(line)
        if g.disputed and g.counted:
            _out(f"    {t('hi_contested')}")
        if not g.counted:  # the audit's result in words, wrapped to the terminal
            why = words(g.log.result, t) if g.log.result is not None else g.log.reason
            # Wrapped to the terminal's width into a pipe too (a sentence, not a line to
            # grep); its own line breaks and tabs are spaces first.
            for piece in fit_text("    " + " ".join(why.split()), terminal_width()):
                _out(piece)
        shown, bots = _own_copies(g.copies, verbose)
        for path in shown:
            for line in _log_lines(t, path):
                _out(line)
        if bots:
            _out(f"    {t('hi_bot_copies_1' if bots == 1 else 'hi_bot_copies', n=bots)}")
    counted = sum(1 for g in gs if g.counted)
    # French: 0 and 1 take the singular ("1 comptée").
    key = "hi_total_1" if len(gs) == 1 else "hi_total_c1" if counted <= 1 else "hi_total"
    _out(t(key, n=len(gs), counted=counted))


def _log_lines(t: Translator, path: str) -> list[str]:
    """``log: PATH``, the home folder as ``~`` on a terminal (the shell reads it back);
    :func:`_out` breaks a path too long for a line after a "/", whole, never cut."""
    if sys.stdout.isatty():
        home = str(Path.home())
        if path.startswith(home + os.sep):
            path = "~" + path[len(home):]
    return [f"    {t('hi_log', path=path)}"]


def _lineup_lines(g: Game, t: Translator, mine: Collection[bytes] = ()) -> list[str]:
    """Who played; on a terminal where it does not fit one line, a side a line ("vs"
    opening the next), never a name parted from its fingerprint (:func:`_seat`)."""
    sides = [" & ".join(_seat(g.seats[s], t, mine) for s in ss) for ss in g.sides]
    whole = "    " + f" {t('hi_vs')} ".join(sides)
    if not sys.stdout.isatty() or len(whole) <= terminal_width():
        return [whole]
    return ["    " + sides[0]] + [f"      {t('hi_vs')} {side}" for side in sides[1:]]


def rating_rows(gs: list[Game], bots: bool = False, mine: list[bytes] | None = None
                ) -> dict[int, list[tuple[bytes, str, Standing]]]:
    """Each pool's rows, the ratings read by the viewer (``mine``: its own keys); an
    unrated row (mostly keys the viewer never met) comes after every rated one."""
    names = names_by_key(gs)
    pools = standings(gs, mine or [], bots)
    out: dict[int, list[tuple[bytes, str, Standing]]] = {}
    for n in POOLS:
        rows = [(k, names.get(k, "?"), r) for k, r in pools.get(n, {}).items()]
        rows.sort(key=lambda x: (x[2].unrated, -x[2].rating.rating, x[1], x[0]))
        out[n] = rows
    return out


def show_ratings(gs: list[Game], t: Translator, mine: list[bytes] | None = None) -> None:
    argued = disputes(gs)
    for n, rows in rating_rows(gs, mine=mine).items():
        _out(t("hi_ratings", n=n))
        if not rows:
            _out("  " + t("hi_no_ratings"))
        _rating_lines(rows, t, bots=False)
    # Games with a bot at the table, rated apart (they tell how one plays against the
    # bots, not one's rank among people): the levels as anchors where vouched for.
    against = {n: rows for n, rows in rating_rows(gs, True, mine).items() if rows}
    if against:
        for piece in fit_text(t("hi_bots_head"), terminal_width()):  # a pipe's too
            _out(piece)
        for n, rows in against.items():
            _out(t("hi_ratings_bots", n=n))
            _rating_lines(rows, t, bots=True)
    if argued:
        # A key whose matches end in disputes about time is shown so, not hidden behind
        # its rating (PROTOCOL.md 12.6); a disputed match rates nobody.
        names = names_by_key(gs)
        _out(t("hi_disputes_head"))
        for key, n in sorted(argued.items(), key=lambda kv: (-kv[1], names.get(kv[0], ""))):
            _out(f"  {n:>4}  {_seat(Seat(names.get(key, '?'), key), t)}")
    for piece in fit_text(t("hi_met_note"), terminal_width()):
        _out(piece)
    _out(t("hi_ratings_note"))


def _rating_lines(rows: list[tuple[bytes, str, Standing]], t: Translator, *,
                  bots: bool) -> None:
    for key, name, st in rows:
        r = st.rating
        seat = Seat(name, key)
        if r.anchor is not None:
            _out(f"  {r.show():>7}         {_seat(seat, t)}  {t('hi_anchor')}")
            continue
        games = t('hi_games' if r.games != 1 else 'hi_games_1', n=r.games)
        # A level is a measure only where the levels themselves are rated: against the
        # bots (among people, no anchor is in the pool), never of an unrated row, and
        # not while the rating is provisional ("1675? ... about expert" after one lucky
        # match says more than one match shows).
        about = f", {t('hi_about', level=t.level(nearest_level(r.rating)))}" \
            if bots and not st.unrated and not r.provisional else ""
        # How much of the rating rests on keys the viewer cannot vouch for (issue 42):
        # sock puppets and a level's public key sat under by anyone.
        if st.unrated:
            why = f", {t('hi_unrated', n=st.unmet, games=st.games, pct=_pct(st))}"
            if st.isolated:
                why += t("hi_unrated_alone", n=st.isolated)  # its own separator
        elif st.unmet:
            why = f", {t('hi_unmet', n=st.unmet, pct=_pct(st))}"
        else:
            why = ""
        # An unrated number in brackets: shown, never read as a rank.
        shown = f"({r.show()})" if st.unrated else r.show()
        _out(f"  {shown:>7}  ±{round(r.rd):<4}  {_seat(seat, t)}  {games}{about}{why}")


def _pct(st: Standing) -> int:
    return round(100 * st.unmet_share)


def fingerprint_of(key: bytes) -> str:
    return Seat("", key).fingerprint


def ratings_json(gs: list[Game], mine: list[bytes] | None = None) -> dict[str, Any]:
    """``{"2": [...], "3": [...], "4": [...], "bots": {"2": [...], ...}}``: the pools
    between people, and apart, those of the games with a bot's key at the table; each
    row with ``unmet`` (its matches against keys the viewer never met), ``isolated``
    (against keys that sat with nobody else) and ``unrated``."""
    out = _pools_json(gs, bots=False, mine=mine)
    out["bots"] = _pools_json(gs, bots=True, mine=mine)
    return out


def _pools_json(gs: list[Game], *, bots: bool, mine: list[bytes] | None) -> dict[str, Any]:
    argued = disputes(gs)
    out: dict[str, Any] = {}
    for n, rows in rating_rows(gs, bots, mine).items():
        out[str(n)] = [{"key": k.hex(), "fingerprint": fingerprint_of(k), "name": name,
                        "rating": s.rating.rating, "rd": s.rating.rd,
                        "volatility": s.rating.volatility, "games": s.rating.games,
                        "provisional": s.rating.provisional, "anchor": s.rating.anchor,
                        "unmet": s.unmet, "isolated": s.isolated, "unrated": s.unrated,
                        "disputes": argued.get(k, 0),
                        "shown": s.rating.show()} for k, name, s in rows]
    return out


def run(args: argparse.Namespace) -> int:
    t = Translator(args.lang or detect_lang())
    since = None
    if args.since is not None:
        since = parse_date(args.since)
        if since is None:
            say_error(f"chkobba history: {t('hi_bad_date', date=args.since)}")
            return EXIT_USAGE
    folder = args.ratings or args.dir or str(data_dir() / "logs")
    if not (args.ratings or args.dir) and not Path(folder).exists():
        # Before the first game there is no folder yet: nothing went wrong.  (A folder
        # the user names that does not exist is a mistake: status 2, below.)
        if args.json:
            print("[]")
        else:
            _out(t("hi_none_yet"))
        return EXIT_OK
    cache = None if args.no_cache else AuditCache().load()
    progress = Progress(sys.stderr, t)
    report: Callable[[int, int], None] = progress
    try:
        logs = index_logs(folder, cache=cache, progress=report)
    except LogUnreadable as exc:  # by its code, in the reader's language
        say_error(f"chkobba history: {local_error_text(t, exc)}")
        return EXIT_USAGE
    finally:
        progress.close()
    # The keys this person replaced count as the person (cli/support/identity.py).
    gs = with_aliases(games(logs), own_aliases())
    if args.ratings is not None:
        if args.json:
            print(json.dumps(ratings_json(gs, own_keys()), ensure_ascii=False, indent=1))
        else:
            show_ratings(gs, t, own_keys())
        return EXIT_OK
    shown = [g for g in gs if matches_filter(g, args, since)]
    if args.json:
        print(json.dumps([g.to_json() for g in shown], ensure_ascii=False, indent=1))
    else:
        show_games(shown, t, verbose=args.verbose, mine=set(own_keys()))
        if args.with_name:
            for line in record_lines(gs, args.with_name, own_keys(), t):
                _out(line)
        if getattr(args, "luck", False) and shown:
            return _luck(shown[0], t)
    return EXIT_OK


def _luck(g: Game, t: Translator) -> int:
    """--luck: the account of luck against play of the newest match listed, from this
    person's seat (any of its keys; the sides named when it did not sit there)."""
    from ..words.luck import account

    mine = set(own_keys())
    me = next((i for i, s in enumerate(g.seats) if s.key in mine), None)
    _out()
    try:
        for line in account(g.log.path, t, me=me, writer=False):
            _out(line)
    except OSError as exc:  # the OS's reason, inside our sentence
        print(f"chkobba history: {t('cx_cannot_read', path=exc.filename, why=os_reason(t, exc))}",
              file=sys.stderr)
        return EXIT_USAGE
    except LogUnreadable as exc:  # by its code, in the reader's language
        say_error(f"chkobba history: {local_error_text(t, exc)}")
        return EXIT_USAGE
    return EXIT_OK


def record_lines(gs: list[Game], who_: str, mine: list[bytes], t: Translator) -> list[str]:
    """With ``--with NAME``: our record against each key that NAME names, counted as the
    lobby and the end screen count it (every counted match where the two sat on opposite
    sides, at 2, 3 and 4 players, whatever the ``--players`` and ``--since`` filters),
    "you vs sami (2aa4-c1e3-4c2c-c087): 4 matches, you 3–1"; one line per key of ours that
    met it."""
    want = who_.casefold()
    others = {s.key: s for g in gs for s in g.seats
              if (s.name.casefold() == want or s.fingerprint.startswith(want))
              and s.key not in mine}
    out = []
    for key, seat in others.items():
        for me in mine:
            r = record_against(gs, me, key)
            if not r.games:
                continue
            name = f"{seat.name}{NBSP}({seat.fingerprint})"
            out.append(t("hi_record_1" if r.games == 1 else "hi_record", name=name,
                         n=r.games, wins=r.wins, losses=r.losses))
    return out
