"""A proven cheat loses the match, it does not void it (PROTOCOL.md 12.7).

A seat about to lose could otherwise sign a bad entry on purpose (a forged move, a bad
share or shuffle proof) and have the match end invalid, "no match of anybody's": its key
never charged a loss.  An ending whose blamed seat the log itself convicts (an entry
that seat signed breaks a rule) counts as a loss for that seat's side, like a signed
leave: live (:attr:`Aborted.loser`), in the audit (:attr:`AuditReport.loser`, the
verdict's ``loser`` and ``winner``, ``chkobba replay``'s last line) and in ``history``
(counted, rated).  A claim, an ``owed`` standing and a damaged or forged file convict
nobody: unchanged."""

from __future__ import annotations

import pytest
from support.audit import play, said
from test_audit import _forge_take, deal_cheats

from chkobba_p2p.observe.audit import INCOMPLETE, INVALID, audit_bodies, audit_log
from chkobba_p2p.observe.history import (
    CONVICTED,
    TAMPERED,
    AuditCache,
    games,
    index_logs,
    ratings,
    record_against,
)
from chkobba_p2p.transcript.events import Standing
from chkobba_p2p.wire.codec import ErrorCode


def _history(played, tmp_path, seats):
    """Every seat's own log of the match in one folder, as ``chkobba history`` reads it."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for seat in seats:
        played.write_log(folder / f"seat{seat}.chklog", seat=seat)
    logs = index_logs(folder, cache=AuditCache(tmp_path / "cache.json"))
    return logs, games(logs)


@pytest.mark.parametrize(("n", "cheater", "cheat"), [
    (2, 1, "forged_take"),
    (2, 0, "bad_share_proof"),
    (2, 1, "bad_shuffle_proof"),
    (4, 2, "forged_take"),
    (4, 1, "bad_share_proof"),
])
def test_a_proven_cheat_loses_the_match_for_the_cheaters_side(n, cheater, cheat, tmp_path):
    hook = _forge_take if cheat == "forged_take" else deal_cheats()[cheat][0]
    played = play(n, cheater=cheater, hook=hook, seed=21, proofs=cheat == "bad_shuffle_proof",
                  key=f"forfeit-{n}-{cheater}-{cheat}".encode())
    assert played.cheated_at is not None
    losing = cheater % 2  # at 2 players the seat; at 4 its team (seats 0 & 2, 1 & 3)
    winning = 1 - losing
    # Live: every honest seat's own check convicts the cheater; its side loses.
    for seat, s in enumerate(played.sessions):
        if seat == cheater:
            continue
        a = s.aborted
        assert a is not None and (a.standing, a.blamed_seat) == (Standing.PROVEN, cheater), a
        assert (a.convicted, a.loser) == (cheater, cheater), a
        assert (a.loser_side(n), a.winner_side(n)) == (losing, winning), a
    # The audit: invalid, the cheater blamed, and its side the loser.
    honest = next(i for i in range(n) if i != cheater)
    report = audit_bodies(list(played.sessions[honest].bodies), workers=0)
    assert (report.verdict, report.blamed) == (INVALID, cheater), report.reason
    assert (report.loser, report.winner) == (losing, winning)
    assert report.outcome is not None
    assert (report.outcome.loser, report.outcome.winner) == (losing, winning)
    name = report.names[cheater]
    line, ligne = said(report), said(report, "fr")
    assert f" -- {name} is convicted of breaking the rules by an entry {name} signed: " in line
    assert line.endswith(" the match; " + (
        f"{report.names[winning]} wins" if n == 2 else
        f"{report.names[winning]} & {report.names[winning + 2]} win")), line
    assert f" -- {name} est reconnu coupable d'avoir enfreint les règles" in ligne
    assert " la partie ; " in ligne and ligne.endswith("gagne" if n == 2 else "gagnent"), ligne
    # History: every seat's copy is one match, counted as a loss for the cheater's side.
    logs, gs = _history(played, tmp_path, range(n))
    assert len(gs) == 1 and gs[0].counted, [(lg.path, lg.ending) for lg in logs]
    lg = gs[0].log
    assert (lg.ending, lg.winner, lg.loser) == (CONVICTED, winning, losing)
    keys = [s.key for s in gs[0].seats]
    winner_key = keys[winning]
    rec = record_against(gs, winner_key, keys[cheater])
    assert (rec.games, rec.wins, rec.losses) == (1, 1, 0)
    pool = ratings(gs)[n]
    assert pool[winner_key].games == pool[keys[cheater]].games == 1
    assert pool[winner_key].rating > pool[keys[cheater]].rating


def test_at_three_players_the_cheater_loses_and_the_others_stand_as_they_are(tmp_path):
    """At 3 players there is no other side: as for a leaver (issue 40), the convicted
    seat loses and the two others are scored as they stand (the one ahead wins)."""
    played = play(3, cheater=2, hook=_forge_take, seed=5, key=b"forfeit-three")
    assert played.cheated_at is not None
    a = played.sessions[0].aborted
    assert a is not None and a.standing == Standing.PROVEN
    assert (a.loser, a.loser_side(3)) == (2, 2)
    report = audit_bodies(list(played.sessions[0].bodies), workers=0)
    assert (report.verdict, report.blamed, report.loser) == (INVALID, 2, 2)
    # The live ending and the audit agree on who, if anyone, wins.
    assert report.winner == a.winner_side(3)
    logs, gs = _history(played, tmp_path, (0, 1))
    assert len(gs) == 1 and gs[0].counted
    assert (gs[0].log.ending, gs[0].log.loser) == (CONVICTED, 2)
    cheat_key = gs[0].seats[2].key
    pool = ratings(gs)[3]
    assert pool[cheat_key].games == 1
    assert all(pool[gs[0].seats[s].key].rating > pool[cheat_key].rating for s in (0, 1))


@pytest.mark.parametrize("code", [ErrorCode.ILLEGAL_MOVE, ErrorCode.TIMEOUT])
def test_a_claimed_abort_still_counts_for_nobody(code, tmp_path):
    """A seat's word against another (even naming a violation) is a claim: nobody is
    convicted, nobody loses, the match counts for nothing."""
    played = play(2, stop_after=30, abort_by=1, abort_code=code, seed=3,
                  key=f"forfeit-claim-{code.name}".encode())
    for s in played.sessions:
        a = s.aborted
        assert a is not None and a.standing != Standing.PROVEN, a
        assert a.loser is None and a.winner_side(2) is None, a
    report = audit_bodies(list(played.sessions[0].bodies), workers=0)
    assert report.verdict == INCOMPLETE and report.loser is None and report.winner is None
    logs, gs = _history(played, tmp_path, (0, 1))
    assert len(gs) == 1 and not gs[0].counted
    assert ratings(gs) == {} or not ratings(gs).get(2)


def test_a_damaged_log_convicts_nobody_and_stays_tampered(tmp_path):
    """A log altered after its entries were signed (a signature that no longer
    verifies) proves nothing about its signer: invalid, nobody loses, TAMPERED."""
    played = play(2, seed=3, key=b"forfeit-damaged")
    path = played.write_log(tmp_path / "damaged.chklog")
    data = bytearray(path.read_bytes())
    body = played.sessions[0].bodies[20]
    at = bytes(data).index(body) + len(body) - 5  # inside the entry's signature
    data[at] ^= 1
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "damaged.chklog").write_bytes(bytes(data))
    report = audit_log(folder / "damaged.chklog", workers=0)
    assert (report.verdict, report.blamed, report.loser, report.winner) == (
        INVALID, None, None, None), report.reason
    logs = index_logs(folder, cache=AuditCache(tmp_path / "cache.json"))
    assert [(lg.ending, lg.counted) for lg in logs] == [(TAMPERED, False)]
    assert " is convicted " not in said(report)


def _log(path, ending, verdict, winner, loser, hands=3):
    from chkobba_p2p.observe.history import Log, Seat
    seats = (Seat("amel", b"\x01" * 32), Seat("bilel", b"\x02" * 32))
    return Log(path, path, "2026-01-01T00:00:00+00:00", "ab" * 16, 2, seats, verdict,
               None, "", ending, winner, loser=loser, totals=(), hands=hands)


def test_a_copy_that_convicts_speaks_unless_every_seat_signed_the_result():
    """The copies of one match disagree: the convicted seat's own copy (a fork it
    signed) ends with its flag on the other seat, the other's copy convicts it.  Its
    flag does not clear it; only a result every seat signed (complete, or decided)
    speaks before a conviction."""
    from chkobba_p2p.observe.history import DECIDED, ON_TIME, POINTS
    convicted = _log("b.chklog", CONVICTED, INVALID, 1, 0, hands=2)
    for other, speaks in ((_log("a.chklog", ON_TIME, "valid", 0, 1), convicted),
                          (_log("c.chklog", POINTS, "valid", 0, None), None),
                          (_log("d.chklog", DECIDED, "valid", 0, None), None)):
        (g,) = games([other, convicted])
        assert g.counted and g.copies == tuple(sorted((other.path, convicted.path)))
        assert g.log.path == (speaks or other).path, (other.ending, g.log.ending)
