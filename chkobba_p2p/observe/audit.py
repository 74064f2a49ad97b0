"""Audit a game's signed log: check everything, from the outside, with no seat and no secret.

One peer's log file (PROTOCOL.md, "The log file") holds every seat's signed entries, so
it is enough to audit the whole match.  :func:`audit_log` replays it through an
:class:`~chkobba_p2p.observe.observer.Observer`: the same session, game driver, deal and
rules-engine code every peer runs (:mod:`chkobba_p2p.transcript.session`, :mod:`chkobba_p2p.deal`,
:mod:`chkobba_p2p.game.rules`), fed every seat's entries and holding none of their secrets:

* the file's framing and size, then for every entry: its signature with the key the
  genesis gives its seat, the hash chain, the floor, the sequence numbers;
* the genesis: protocol version, ruleset and its hash, seats and keys; every ``ready``;
* every deal message of every seat: key proofs, shuffle proofs, decryption-share proofs,
  plays, complaints, and at the end of every deck the opened seeds against their
  commitments with every shuffle step recomputed;
* every move and cut with the rules engine, every hand's score, the match result and
  every seat's signed ``done``.

Once a deck's seeds are open the auditor knows every card of it, so after each hand it
replays the hand once more *with every hand known* (the players themselves cannot: they
never see each other's cards).  That also checks the forced-capture variant, which no
live peer can check for an opponent.  The full-knowledge replay gives the game records
(:mod:`chkobba_p2p.game.record`).

The verdict (:class:`AuditReport`): **valid** (complete and correct), **invalid** (the
first violation: the entry, the code, the seat to blame when a signature proves who did
it, a sentence) or **incomplete** (no violation, but the match did not finish: an abort,
a truncated file), or **unsupported** (the table plays a capability this auditor does
not know: it cannot audit the match, and blames no one).  A file that is not a log at all
raises :class:`~chkobba_p2p.wire.logfile.LogUnreadable`.

An ``abort`` that ended the game is the peers' claim.  When it carries as evidence an entry
this log lacks (its writer got the abort first), that entry is checked as the next one:
a violation in it is blamed as usual, and an entry that passes refutes the claim.  If the
game ended before every seed of the last deck was opened, the seeds that were are checked
anyway (a peer that found a shuffle mismatch stops before sending its own seed).

Shuffle proofs are most of the work.  Each deck's wait for its seeds: once they are open
and every step recomputed, the witness makes each proof's check a third cheaper, exactly
(:func:`chkobba_p2p.deal.shuffle_proof.verify_shuffle`'s ``opened``); a deck whose seeds never
all open has its proofs checked in full at the end.  With :func:`audit_log`'s ``workers``
(by default, on a machine of two cores or more) worker processes check them while the
replay goes on.  The earliest refused proof is still the first violation: the verdict is
the same either way.

The checking is :class:`chkobba_p2p.observe.observer.Observer`'s, the library's public observer
(the one a spectator runs live); this module reads the file and reports.

Blame in a log: an entry that is correctly signed and extends the chain but breaks a rule
is its signer's (or, for the deal, the seat the deal's checks name).  An entry whose
signature fails, or that does not extend the chain (dropped, reordered, spliced), cannot
be pinned on a seat: no honest peer logs such an entry, so the file was altered after it
was written; it is reported as tampering with no seat blamed -- except an entry that
verifies under *another* seat's key, which that seat signed in someone else's name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..deal.messages import item_label
from ..game.cards import Card
from ..game.seating import SHAPES, Seating
from ..transcript.events import Standing
from ..transcript.table import TableInfo
from ..wire import codec as wire
from ..wire.codec import ErrorCode, ProtocolError
from ..wire.logfile import read_log
from .observer import Observer
from .proofs import default_workers
from .verdict import (
    DECIDED,
    DISPUTED,
    INCOMPLETE,
    INVALID,
    LEFT,
    ON_TIME,
    UNSUPPORTED,
    VALID,
    AbortClaim,
    Verdict,
)

__all__ = [
    "VALID",
    "INVALID",
    "INCOMPLETE",
    "UNSUPPORTED",
    "EXIT_VALID",
    "EXIT_INVALID",
    "EXIT_USAGE",
    "EXIT_INCOMPLETE",
    "EXIT_UNSUPPORTED",
    "AbortClaim",
    "AuditReport",
    "audit_log",
    "audit_bodies",
    "default_workers",
]

#: Exit statuses of ``chkobba replay`` (also :attr:`AuditReport.exit_code`).
EXIT_VALID = 0
EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_INCOMPLETE = 3
#: The table plays a capability this auditor does not know: it cannot audit the match,
#: and blames no one (:data:`~chkobba_p2p.observe.observer.UNSUPPORTED`).
EXIT_UNSUPPORTED = 4

# ---------------------------------------------------------------------------- report


@dataclass
class AuditReport:
    """What :func:`audit_log` found.

    ``verdict``: :data:`VALID`, :data:`INVALID`, :data:`INCOMPLETE` or :data:`UNSUPPORTED`
    (``code`` ``unknown_capability``; :attr:`outcome`'s ``unknown_caps`` the capabilities
    this auditor does not know; nobody blamed).  For an invalid log,
    ``entry`` is the index (0 = the genesis) of the first offending entry, ``code`` the
    wire code name (``illegal_move``, ``deal_failure``, ``bad_signature``...), ``blamed``
    the seat to blame or None when no signature pins it on a seat (the file was altered),
    ``reason`` a sentence.  For an incomplete one, ``code`` is ``aborted`` (with the
    :attr:`aborts` that ended the game) or ``truncated`` or ``unfinished``.

    ``records`` are the game records (:mod:`chkobba_p2p.game.record`) of every hand the audit
    completed, with every card known, and the match record once the match is complete.
    """

    path: str
    verdict: str
    code: str | None = None
    blamed: int | None = None
    reason: str = ""
    entry: int | None = None
    entries: int = 0
    header: dict[str, Any] = field(default_factory=dict)
    table: TableInfo | None = None
    records: list[dict[str, Any]] = field(default_factory=list)
    draws: list[dict[int, Card]] = field(default_factory=list)
    first_dealer: int | None = None
    aborts: list[AbortClaim] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    winner: int | None = None
    totals: tuple[int, ...] = ()
    #: The losing side of a match lost by a flag, a resignation or a leave (at 3 players
    #: there may be a loser and no winner: the two others were level).
    loser: int | None = None
    #: The abort that ended the game gave as evidence an entry that passes every check.
    claim_refuted: bool = False
    #: For an aborted log: what the log shows of the abort's accusation (a
    #: :class:`~chkobba_p2p.transcript.events.Standing`); ``blamed`` is set only when the log
    #: supports it (the seat owed the next message, or it left on its own).
    standing: str | None = None
    #: For an invalid log: the offending entry in a few words (kind, signer, contents).
    offending: str | None = None
    #: The seats that signed at least one entry the audit accepted (the genesis is seat
    #: 0's): a seat's name in the genesis is the host's word about it, and counts as that
    #: key's name only where the key itself signed (history's names_by_key).
    signers: tuple[int, ...] = ()
    #: The observer's verdict itself (data; :meth:`describe` words it in the players' names).
    outcome: Verdict | None = None

    @property
    def exit_code(self) -> int:
        return {VALID: EXIT_VALID, INVALID: EXIT_INVALID, INCOMPLETE: EXIT_INCOMPLETE,
                UNSUPPORTED: EXIT_UNSUPPORTED}[self.verdict]

    @property
    def players(self) -> int:
        return self.table.players if self.table else 0

    def seat_label(self, seat: int | None) -> str:
        if seat is None:
            return "no seat (the file was altered; no signature pins it on a player)"
        if self.table is not None and 0 <= seat < self.table.players:
            s = self.table.seats[seat]
            return f"seat {seat} ({s.name}, key {s.fingerprint})"
        return f"seat {seat}"

    @property
    def names(self) -> list[str]:
        """The players' names, in seat order (none before the genesis is read)."""
        return [s.name for s in self.table.seats] if self.table is not None else []

    def describe(self) -> str:
        """How the match ended, in the players' names ("bob resigned (entry #115): alice
        wins the match by resignation"; "complete: alice wins 11-7"); for a violation, its
        reason."""
        if self.outcome is None:
            return self.reason
        return _verdict_in_names(self.outcome, self.names)

    def summary(self) -> str:
        """One line: the verdict and why, in the players' names."""
        if self.verdict == VALID and self.code == "resigned":
            return (f"VALID: {self.entries} entries; every check passes; the match ended by "
                    f"resignation: {self.describe()}")
        if self.verdict == VALID and self.code == ON_TIME:
            return (f"VALID: {self.entries} entries; every check passes; the match ended on "
                    f"time: {self.describe()}")
        if self.verdict == VALID and self.code == LEFT:
            return (f"VALID: {self.entries} entries; every check passes; the match ended "
                    f"when a player left: {self.describe()}")
        if self.verdict == VALID and self.code == DECIDED:
            return (f"VALID: {self.entries} entries; every check passes; {self.describe()}")
        if self.verdict == INCOMPLETE and self.code == DISPUTED:
            return f"INCOMPLETE (disputed): {self.describe()}"
        if self.verdict == VALID and self.outcome is not None and self.outcome.winner is not None:
            return (f"VALID: {self.entries} entries; every signature, the chain, the deal's "
                    "proofs and reveals, every move and every score check out; "
                    f"{self.describe()}")
        if self.verdict == VALID:
            return (f"VALID: {self.entries} entries; every signature, the chain, the deal's "
                    "proofs and reveals, every move and every score check out")
        if self.verdict == UNSUPPORTED:  # nobody is blamed, nothing is concluded
            return f"CANNOT AUDIT ({self.code}): {self.reason}"
        where = f"entry #{self.entry}: " if self.entry is not None else ""
        head = "INVALID" if self.verdict == INVALID else "INCOMPLETE"
        blame = ""
        if self.verdict == INVALID:
            blame = f" -- blamed: {self.seat_label(self.blamed)}"
        elif self.code == "aborted" and self.aborts \
                and self.aborts[0].standing != Standing.SELF:
            # An abort is its signer's word: worded as a claim unless the log shows it.
            # (One its signer signed against itself -- it left, or ran out of its own
            # time -- is what the verdict's own words already say.)
            blame = " -- " + _claim_in_names(self.aborts[0], self._name)
        why = self.describe() if self.verdict == INCOMPLETE else self.reason
        return f"{head} ({self.code}): {where}{why}{blame}"

    def _name(self, seat: int) -> str:
        if self.table is not None and 0 <= seat < self.table.players:
            return self.table.seats[seat].name
        return f"seat {seat}"

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON (the verdict; the records are separate)."""
        return {"path": self.path, "verdict": self.verdict, "code": self.code,
                "blamed": self.blamed, "reason": self.reason, "entry": self.entry,
                "entries": self.entries, "winner": self.winner, "totals": list(self.totals),
                "loser": self.loser,
                "standing": self.standing,
                "aborts": [a.__dict__ for a in self.aborts], "warnings": list(self.warnings)}


# ---------------------------------------------------------------------------- audit


def _verdict_in_names(v: Verdict, names: Sequence[str]) -> str:
    """The auditor's English for :meth:`AuditReport.summary` (``chkobba replay`` and the
    history's cache): a client words a :class:`Verdict` itself from its fields (the
    terminal client: ``chkobba_cli.event_words.words``, English and French).  This moves
    to the client with the summary.  The verdict's reason in the players' words:
    ``names`` are the seats' names (the table's order), sides at 4 players are "ali &
    sami".  "bob resigned (entry #115): alice wins the match by resignation"; "alice wins
    11-7"; for what no name changes (a violation's reason), its reason as it is."""
    def who(seat: int | None) -> str:
        if seat is not None and 0 <= seat < len(names):
            return names[seat]
        return "nobody" if seat is None else f"seat {seat}"

    def side(s: int) -> str:
        n = len(names)
        seating = Seating.of(n) if n in SHAPES else None
        return " & ".join(names[x] for x in seating.seats_of(s)) \
            if seating is not None and seating.teams else who(s)

    def wins(s: int) -> str:  # the verb agrees: "ali & sami win", "alice wins"
        n = len(names)
        two = n in SHAPES and Seating.of(n).teams
        return f"{side(s)} {'win' if two else 'wins'}"

    at = f" (entry #{v.entry})" if v.entry is not None else ""
    if v.verdict == VALID and v.code == ON_TIME:
        role = " (the host)" if v.by_seat == 0 else ""
        word = "the host" if v.by_seat == 0 else who(v.by_seat)
        won = f"{wins(v.winner)} the match on time" if v.winner is not None \
            else "the two others are level, nobody wins"
        return (f"{who(v.blamed)} lost on time{at}, as {who(v.by_seat)}{role} "
                f"says: {won}; the log shows {who(v.blamed)} was to play, the time "
                f"is {word}'s word (its signed clock reading, in the log, is its own)")
    if v.verdict == VALID and v.code == LEFT and v.by_seat is not None:
        won = f"{wins(v.winner)} the match" if v.winner is not None \
            else "the two others are level, nobody wins"
        return f"{who(v.by_seat)} left the match{at}: {won}"
    if v.verdict == VALID and v.code == DECIDED and v.winner is not None:
        score = "-".join(map(str, sorted(v.totals, reverse=True)))
        return (f"decided: {wins(v.winner)} {score} (the game stopped while the "
                "result was being signed; the result stands)")
    if v.verdict == INCOMPLETE and v.code == DISPUTED and v.blamed is not None \
            and v.by_seat is not None:
        return (f"{who(v.by_seat)} flagged {who(v.blamed)}{at} and "
                f"{who(v.blamed)} disputes it with its own clock, which showed time "
                "left: one word against the other, the match counts for nobody")
    if v.verdict == VALID and v.code == "resigned" and v.winner is None \
            and v.by_seat is not None:
        return f"{who(v.by_seat)} resigned{at}: the two others are level, nobody wins"
    if v.verdict == VALID and v.code == "resigned" and v.winner is not None:
        return f"{who(v.by_seat)} resigned{at}: {wins(v.winner)} the match " \
            "by resignation"
    if v.verdict == VALID and v.winner is not None and v.totals:
        score = "-".join(map(str, sorted(v.totals, reverse=True)))
        return f"complete: {wins(v.winner)} {score}"
    if v.verdict == INCOMPLETE and v.code == "aborted" and v.by_seat is not None:
        by = who(v.by_seat)
        if v.standing == Standing.SELF:
            what = f"{by} left the game"
        elif v.standing == Standing.OWED and v.blamed is not None:
            what = f"{by} ended the game; the log shows {who(v.blamed)} owed the next " \
                "message"
        elif v.standing == Standing.REFUTED:
            what = f"{by} ended the game; the entry its abort cites passes every check, " \
                "which refutes its claim"
        else:
            what = f"{by} ended the game"
        return f"{what}; no violation in the entries before it"
    return v.reason


def _claim_in_names(c: AbortClaim, label: Any = None) -> str:
    """The auditor's English for an abort in :meth:`AuditReport.summary`, an unproven
    accusation worded as a claim (``label(seat) -> str`` names seats; default "seat N").
    A client words an :class:`AbortClaim` itself (the terminal client:
    ``chkobba_cli.event_words.words``); this moves to the client with the summary."""
    by = label(c.by_seat) if label else f"seat {c.by_seat}"
    why = f": {c.why}" if c.why else ""
    if c.blamed is None:
        return f"{by} ended the game ({c.code}{why}), blaming nobody"
    who = label(c.blamed) if label else f"seat {c.blamed}"
    if c.code == "resigned" and c.blamed == c.by_seat:
        return f"{by} resigned"
    if c.on_time:
        return (f"{who} lost on time ({c.code}{why}); the time is {by}'s word, the "
                f"log shows {who} was to play")
    if c.standing == Standing.SELF:
        if c.code == ErrorCode.TIMEOUT.name.lower():
            return f"{by} ran out of time ({c.code}{why})"
        return f"{by} left the game ({c.code}{why})"
    if c.standing == Standing.PROVEN:
        return f"{by} blames {who} ({c.code}{why}); the log proves it"
    said = f"{by} says {who} is at fault ({c.code}{why})"
    if c.standing == Standing.OWED:
        return f"{said}; the log shows {who} owed the next message"
    if c.standing == Standing.REFUTED:
        return f"{said}; the entry it cites passes every check: the claim is refuted"
    if c.standing == Standing.DISPUTED:
        if c.code == ErrorCode.CLOCK_DISPUTE.name.lower():
            return (f"{by} disputes {who}'s flag ({c.code}{why}): its own clock "
                    "showed time left; one word against the other")
        return (f"{by} flagged {who} ({c.code}{why}), who disputes it with its own "
                "clock; one word against the other")
    return f"{said}; nothing in the log shows it"


def audit_log(path: str | Path, *, workers: int | None = None,
              batch: bool = True) -> AuditReport:
    """Audit the log file at ``path``.  Raises :class:`~chkobba_p2p.wire.logfile.LogUnreadable`
    if it is not a log.

    ``workers``: processes that check shuffle proofs while the audit goes on (default
    :func:`default_workers`: one per core beyond this process's own, none on one core; 0:
    everything in this process).  ``batch``: each deck's shuffle proofs are checked once
    its seeds are open, with them (cheaper; False, without workers: each in full as it
    comes, as a seat does; with workers the proofs always wait for their deck's seeds).
    The verdict is the same every way."""
    log = read_log(path)
    return audit_bodies(log.bodies, header=log.header, tail=log.tail, path=log.path,
                        workers=workers, batch=batch)


def _header_warnings(header: dict[str, Any], table: TableInfo) -> list[str]:
    out = []
    game, seat, key = header.get("game"), header.get("seat"), header.get("key")
    spectator = header.get("spectator") is True and seat is None and key is None
    if game != table.game:
        out.append("the log header names another game than the genesis (the header is not "
                   "signed)")
    if not spectator and not (isinstance(seat, int) and 0 <= seat < table.players
                              and table.seats[seat].key == key):
        out.append("the log header's seat and key do not match the genesis (the header is "
                   "not signed)")
    return out


def _describe_entry(body: bytes) -> str:
    """An entry in a few words, for humans: what it claims to be and hold."""
    try:
        e = wire.open_entry(body)
    except ProtocolError:
        return f"{len(body)} bytes that are not a signed entry"
    f = e.fields
    out = f"{e.kind} entry n={e.seq} in seat {e.seat}'s name"
    items = f.get("d")
    if isinstance(items, list) and items:
        out += ", deal items " + " ".join(item_label(i) for i in items)
    action = f.get("a")
    after = f.get("p")  # shares-ride/v1: the items the entry caused, after its action
    if isinstance(action, dict):
        def show(k: str, v: object) -> str:
            def c(x: object) -> str:
                ok = isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 40
                return Card(x).text if ok else repr(x)  # type: ignore[arg-type]
            if k == "card":
                return f"card={c(v)}"
            if k == "take" and isinstance(v, list):
                return "take=[" + " ".join(c(x) for x in v) + "]"
            return f"{k}={v!r}"
        out += f", action {action.get('t')} " + " ".join(
            show(k, v) for k, v in sorted(action.items()) if k != "t")
    if isinstance(after, list) and after:
        out += ", then deal items " + " ".join(item_label(i) for i in after)
    if e.kind in ("done", "abort"):
        extra = {k: v for k, v in f.items() if k in ("result", "code", "blamed", "why")}
        out += f", {extra}"
    return out


def _signers(obs: Observer) -> tuple[int, ...]:
    """The seats that signed an entry the observer accepted: seat 0 its genesis, any
    seat a link of the chain or an abort (every abort it lists verified), from what it
    already holds (no entry is read again)."""
    session = obs.session
    if session is None:
        return ()
    seats = {0} | {a.by_seat for a in obs.aborts}
    seats |= {seat for seat, n in enumerate(session.chain.next_seq) if n > 0}
    return tuple(sorted(seats))


def audit_bodies(bodies: Sequence[bytes], *, header: dict[str, Any] | None = None,
                 tail: str | None = None, path: str = "<memory>",
                 workers: int | None = None, batch: bool = True) -> AuditReport:
    """Audit a transcript given as its entries' frame bodies (genesis first), as a log
    file holds them.  ``tail`` is how the file ended (see
    :class:`~chkobba_p2p.wire.logfile.LogFile`); ``workers``
    and ``batch`` as for :func:`audit_log`."""
    report = AuditReport(path, INCOMPLETE, header=dict(header or {}))
    obs = Observer(workers=default_workers() if workers is None else workers, batch=batch)
    try:
        for body in bodies:
            obs.feed(body)
            if obs.table is not None and report.table is None:
                report.table = obs.table
                if header is not None:
                    report.warnings.extend(_header_warnings(header, obs.table))
        v = obs.end(tail)
    finally:
        obs.close()
    if not bodies:
        v = Verdict(INCOMPLETE, "unfinished", "the log holds no entry, not even the genesis")
    report.verdict, report.code, report.reason = v.verdict, v.code, v.reason
    report.outcome = v
    report.blamed, report.entry = v.blamed, v.entry
    report.entries = obs.stopped_at if obs.stopped_at is not None else len(bodies)
    report.warnings.extend(obs.warnings)
    report.aborts = sorted(obs.aborts, key=lambda a: a.index)
    report.claim_refuted = obs.claim_refuted
    report.standing = v.standing
    if v.verdict == INVALID and v.entry is not None and v.entry < len(bodies):
        report.offending = _describe_entry(bodies[v.entry])
    report.records = obs.kept_records()
    report.draws = list(obs.draws)
    report.first_dealer = obs.first_dealer
    report.totals, report.winner = obs.totals, obs.winner
    report.loser = v.loser
    report.signers = _signers(obs)
    if len(report.records) != len(obs.records):  # a late-found violation voids hands
        report.winner = None
        report.totals = tuple(report.records[-1]["totals"]) if report.records else ()
    return report


def hand_lines(record: dict[str, Any]) -> list[str]:
    """A hand record, play by play, as text lines."""
    out = [f"hand {record['number']}: dealer seat {record['dealer']}, cutter seat "
           f"{record['cutter']}"]
    for i, r in enumerate(record.get("redeals", []), 1):
        out.append(f"  redeal {i}: opening table {' '.join(r['table'])} -> dealt again")
    for ev in record["events"]:
        (kind, b), = ev.items()
        if kind == "deal":
            by: dict[str, list[str]] = {}
            for who, c in zip(b["to"], b["cards"], strict=True):
                by.setdefault("table" if who is None else f"seat {who}", []).append(c or "??")
            what = "; ".join(f"{k}: {' '.join(v)}" for k, v in by.items())
            out.append(f"  {'draw' if b['draw'] else 'deal'}  {what}")
        elif kind == "cut":
            out.append(f"  cut   seat {b['seat']} " + ("keeps the drawn card" if b["keep"]
                                                       else f"places {b['card']} on the table"))
        elif kind == "play":
            take = f" takes {' + '.join(b['capture'])}" if b["capture"] else " (stays)"
            out.append(f"  play  seat {b['seat']}: {b['card']}{take}"
                       + ("  CHKOBBA" if b["chkobba"] else ""))
        elif kind == "sweep" and b["cards"]:
            out.append(f"  end   seat {b['seat']} takes the rest: {' '.join(b['cards'])}")
    out.extend("  " + line for line in score_lines(record))
    return out


def score_lines(record: dict[str, Any]) -> list[str]:
    """A hand's points breakdown, per side."""
    s = record["score"]
    cats = s["categories"]
    players = record.get("players")
    name = Seating.of(players).side_word if players in SHAPES else "seat"
    first = 1 if name == "team" else 0  # teams are numbered from 1, seats from 0

    def who(cat: str) -> str:
        w = cats.get(cat)
        return "beji" if w is None else f"{name} {w + first}"
    parts = [f"{cat} {who(cat)}" for cat in cats]
    return [f"cards {s['cards']}, diamonds {s['diamonds']}, sevens {s['sevens']}"
            + (f", sixes {s['sixes']}" if "barmila" in cats else ""),
            f"points: {', '.join(parts)}, chkobbas {s['chkobbas']} -> "
            f"{' / '.join(str(p) for p in s['points'])} "
            f"(totals {' / '.join(str(t) for t in record['totals'])})"]
