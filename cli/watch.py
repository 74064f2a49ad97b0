"""``chkobba watch HOST[:PORT]``: watch a table as a spectator, play by play.

No seat, no key, no secret: the spectator sees what the table shows in public, each hand's
cards once its seeds open, and checks every entry as an auditor does (a cheat is shown the
moment it is caught).  It keeps its own copy of the signed log, which ``chkobba replay``
audits; leaving (Ctrl-C) does not affect the game.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import trio

from chkobba_p2p.cards import Card
from chkobba_p2p.events import Chat, Lobby, Resumed, Spectators, Waiting
from chkobba_p2p.observer import INVALID, VALID, DeckRevealed, Verdict
from chkobba_p2p.record import result_sentence
from chkobba_p2p.rules import CutEvent, DealEvent, PlayEvent, SweepEvent
from chkobba_p2p.session import (
    Aborted,
    FirstDealerDrawn,
    HandScored,
    HandStarted,
    MatchDone,
    RedealEvent,
    TableReady,
)
from chkobba_p2p.transcript import default_log_path
from chkobba_p2p.watch import WatchConfig, watch_match
from chkobba_p2p.wire import MAX_NAME


def _clean(text: object, limit: int = MAX_NAME) -> str:
    """A string from the network, safe to print on a terminal."""
    return "".join(ch for ch in str(text) if ch.isprintable())[:limit]


class Narrator:
    """Turns the spectator's events into lines of text."""

    def __init__(self, out=None) -> None:
        self.out = out or sys.stdout
        self.names: list[str] = []
        self.players = 0

    def say(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    def who(self, seat: int | None) -> str:
        if seat is not None and 0 <= seat < len(self.names):
            return self.names[seat]
        return "nobody" if seat is None else f"seat {seat}"

    @staticmethod
    def cards(cs) -> str:
        return " ".join(c.label() if isinstance(c, Card) else "??" for c in cs) or "-"

    def __call__(self, ev: object) -> None:  # noqa: C901 - one line per kind of event
        if isinstance(ev, TableReady):
            t = ev.table
            self.names = [s.name for s in t.seats]
            self.players = t.players
            self.say(f"table: {t.players} players, {t.rules.describe()}")
            for s in t.seats:
                self.say(f"  seat {s.seat}: {s.name} (key {s.fingerprint})")
        elif isinstance(ev, Lobby):
            seats = [f"{_clean(s[0])}" if s else "(free)" for s in ev.seats]
            self.say("lobby: " + ", ".join(seats))
        elif isinstance(ev, Spectators):
            names = ", ".join(_clean(n) for n in ev.names) or "nobody"
            self.say(f"watching ({len(ev.names)}/{ev.limit}): {names}")
        elif isinstance(ev, FirstDealerDrawn):
            self.say("first-dealer draw: " + ", ".join(
                f"{self.who(s)} {c.label()}" for s, c in sorted(ev.draws.items())))
        elif isinstance(ev, HandStarted):
            self.say(f"-- hand {ev.number}: {self.who(ev.dealer)} deals")
        elif isinstance(ev, RedealEvent):
            self.say(f"-- the opening is dealt again by {self.who(ev.dealer)}")
        elif isinstance(ev, DealEvent):
            table = [c for who, c in zip(ev.recipients, ev.cards, strict=True) if who is None]
            counts: dict[int, int] = {}
            for who in ev.recipients:
                if who is not None:
                    counts[who] = counts.get(who, 0) + 1
            parts = []
            if table:
                parts.append(f"table {self.cards(table)}")
            if counts:
                n = max(counts.values())
                parts.append(f"{n} card{'s' if n > 1 else ''} face down to "
                             + ", ".join(self.who(s) for s in counts))
            self.say(("draw: " if ev.draw else "deal: ") + "; ".join(parts))
        elif isinstance(ev, CutEvent):
            self.say(f"{self.who(ev.seat)} keeps the drawn card" if ev.keep else
                     f"{self.who(ev.seat)} places {self.cards([ev.card])} on the table")
        elif isinstance(ev, PlayEvent):
            take = f" takes {self.cards(sorted(ev.capture))}" if ev.capture else ""
            self.say(f"{self.who(ev.seat)} plays {ev.card.label()}{take}"
                     + ("  CHKOBBA!" if ev.chkobba else ""))
        elif isinstance(ev, SweepEvent):
            if ev.cards:
                self.say(f"{self.who(ev.seat)} takes the rest: {self.cards(ev.cards)}")
        elif isinstance(ev, DeckRevealed):
            what = "the abandoned deal" if ev.redeal else f"hand {ev.hand}"
            self.say(f"seeds open, {what} was dealt: " + "; ".join(
                f"{self.who(s)} {self.cards(ev.dealt_to(s))}" for s in range(self.players)))
        elif isinstance(ev, HandScored):
            pts = " / ".join(map(str, ev.score.points))
            self.say(f"hand {ev.number} scored: {pts} (totals "
                     f"{' / '.join(map(str, ev.totals))})")
        elif isinstance(ev, MatchDone):
            self.say("match over: " + result_sentence(ev.winner_side, ev.totals, self.players)
                     + "; every seat signed the result")
        elif isinstance(ev, Aborted):
            blamed = "" if ev.blamed_seat is None else \
                f", blaming {self.who(ev.blamed_seat)} (its claim)"
            self.say(f"{self.who(ev.by_seat)} ended the game: {ev.code.name.lower()}"
                     f"{blamed}: {_clean(ev.detail, 200)}")
        elif isinstance(ev, Verdict):
            self.verdict(ev)
        elif isinstance(ev, Chat):
            self.say(f"<{self.who(ev.seat)}> {_clean(ev.text, 200)}")
        elif isinstance(ev, Waiting):
            self.say(f"waiting {ev.seconds} s for {self.who(ev.seat)} to come back")
        elif isinstance(ev, Resumed):
            self.say(f"{self.who(ev.seat)} is back")

    def verdict(self, v: Verdict) -> None:
        head = {VALID: "VALID", INVALID: "CHEAT CAUGHT"}.get(v.verdict, "INCOMPLETE")
        blame = ""
        if v.verdict == INVALID:
            blame = f" -- blamed: {self.who(v.blamed)}" if v.blamed is not None else \
                " -- no player is blamed (the entry was altered)"
        where = f" at entry #{v.entry}" if v.entry is not None else ""
        self.say(f"{head}{where}: {v.code + ': ' if v.code else ''}{v.reason}{blame}")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "watch", help="watch a table as a spectator (the host must allow spectators)",
        description="Watch a game at HOST[:PORT] without a seat: every play as the table "
        "shows it, each hand's cards once its seeds are opened, the scores, and a cheat "
        "the moment it is caught (every entry is checked as 'chkobba replay' does). Keeps "
        "its own copy of the signed log. The host must have started with --spectators N.")
    p.add_argument("address", metavar="HOST[:PORT]")
    p.add_argument("--name", default="spectator", help="the name the players see")
    p.add_argument("--log", metavar="FILE", help="where to keep the log copy (default: the "
                   "data directory)")
    p.add_argument("--connect-retry", type=float, default=0.0, metavar="S",
                   help="keep retrying a refused first connection this long")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    name = _clean(args.name)
    if not name or name != args.name:
        print(f"chkobba watch: --name must be 1 to {MAX_NAME} printable characters",
              file=sys.stderr)
        return 2
    log = Path(args.log) if args.log else default_log_path("watch")
    try:
        config = WatchConfig(args.address, name=name, log_path=log,
                             connect_retry=args.connect_retry)
        narrator = Narrator()
        outcome = trio.run(watch_match, config, narrator)
    except ValueError as exc:  # a malformed address
        print(f"chkobba watch: {exc}", file=sys.stderr)
        return 2
    if outcome.verdict is None:
        print(f"chkobba watch: {outcome.error}", file=sys.stderr)
        return 2
    if outcome.log_path is not None:
        print(f"log: {outcome.log_path} (check it: chkobba replay {outcome.log_path})",
              flush=True)
    return {VALID: 0, INVALID: 1}.get(outcome.verdict.verdict, 3)
