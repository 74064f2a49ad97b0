"""The public observer: it checks a transcript from no seat exactly as the seats do, shows
what every player saw in public and nothing more, tells the hands once their seeds open,
and names the cheater; and nothing outside session.py and deal/core.py reaches into their
private names."""

from __future__ import annotations

import ast
import dataclasses
import functools
from pathlib import Path

import pytest
from support.audit import play, played_once

import chkobba_p2p
from chkobba_cli.words.event_words import words
from chkobba_cli.words.i18n import Translator
from chkobba_p2p.game.cards import Card
from chkobba_p2p.game.rules import PRESETS, CutEvent, DealEvent, PlayEvent, SweepEvent
from chkobba_p2p.observe.observer import DeckRevealed, Observer
from chkobba_p2p.observe.verdict import INCOMPLETE, INVALID, VALID, Verdict
from chkobba_p2p.tablestate import TableState
from chkobba_p2p.transcript.bodies import PlayAction
from chkobba_p2p.transcript.events import HandScored, MatchDone, TableReady
from chkobba_p2p.transcript.session import Session

ROOT = Path(__file__).resolve().parent.parent.parent
EN = Translator("en")  # the words a person reads (the client's)
ENGINE = DealEvent | CutEvent | PlayEvent | SweepEvent


def _public(ev: object) -> object:
    """What everyone at the table sees of an engine event: private cards unknown."""
    if isinstance(ev, DealEvent):
        return DealEvent(ev.recipients, tuple(c if who is None else None
                                              for who, c in zip(ev.recipients, ev.cards,
                                                                strict=True)), ev.draw)
    return ev


def _watch(bodies: list[bytes]) -> tuple[Observer, list[list[object]]]:
    obs = Observer()
    return obs, [obs.feed(b) for b in bodies]


@pytest.fixture(scope="module")
def honest2():
    return played_once(2, seed=3, key=b"honest2-0")  # shared with test_audit: read only


def test_an_honest_match_shows_every_player_the_same_public_events(honest2):
    played = honest2
    obs, per_entry = _watch(played.sessions[0].bodies)
    events = [e for batch in per_entry for e in batch]
    assert isinstance(events[0], TableReady) and events[0].seat is None
    v = obs.end()
    assert (v.verdict, v.code, v.blamed, v.by_seat) == (VALID, None, None, None)
    assert obs.verdict.reason.startswith("complete: ")
    # The result as data too, the same as the signed one and the reason's sentence.
    assert v.winner == played.sessions[0].done.winner_side
    assert v.totals[v.winner] > v.totals[1 - v.winner]
    assert v.reason.endswith(f"wins {v.totals[0]}-{v.totals[1]}")
    seen = [e for e in events if isinstance(e, ENGINE)]
    for seat_events in played.events:
        # What each seat saw, with its own cards hidden again, is what the observer saw.
        assert [_public(e) for e in seat_events if isinstance(e, ENGINE)] == seen
        assert [e for e in seat_events if isinstance(e, HandScored)] == \
            [e for e in events if isinstance(e, HandScored)]
    done = [e for e in events if isinstance(e, MatchDone)]
    assert len(done) == 1 and done[0] == played.sessions[1].done
    assert obs.winner == done[0].winner_side and obs.totals == done[0].totals


def test_no_hidden_card_before_its_seeds_open_then_every_hand_is_told(honest2):
    played = honest2
    obs, per_entry = _watch(played.sessions[0].bodies)
    events = [e for batch in per_entry for e in batch]
    for e in events:
        if isinstance(e, DealEvent):
            assert all(c is None for who, c in zip(e.recipients, e.cards, strict=True)
                       if who is not None)
        if isinstance(e, CutEvent) and e.keep:
            assert e.card is None
    reveals = [i for i, e in enumerate(events) if isinstance(e, DeckRevealed)]
    scored = [i for i, e in enumerate(events) if isinstance(e, HandScored)]
    assert len(reveals) == len(scored) >= 1
    for number, (r, s) in enumerate(zip(reveals, scored, strict=True), 1):
        rev = events[r]
        assert isinstance(rev, DeckRevealed) and rev.hand == number and not rev.redeal
        # Told once the hand is over: after its last play, right before its score.
        assert r == s - 1
        plays = [e for e in events[:r] if isinstance(e, PlayEvent)]
        assert plays and all(not isinstance(e, PlayEvent) for e in events[r:s])
        # Each seat's cards are what that seat itself was dealt (its own secret view).
        for seat, seat_events in enumerate(played.events):
            own = [c for e in seat_events if isinstance(e, DealEvent)
                   for who, c in zip(e.recipients, e.cards, strict=True) if who == seat]
            hands = [ev for ev in events if isinstance(ev, DeckRevealed) and not ev.redeal]
            assert [c for h in hands for c in h.dealt_to(seat)] == own


def test_a_table_state_of_no_seat_follows_the_match(honest2):
    obs, per_entry = _watch(honest2.sessions[0].bodies)
    state = TableState()
    for batch in per_entry:
        state = state.apply_all([e for e in batch
                                 if not isinstance(e, DeckRevealed | Verdict)])
    assert state.seat is None and state.over
    assert state.totals == obs.totals


def test_a_redealt_opening_is_revealed_as_a_redeal():
    rules = PRESETS["tunisian"].with_variant("redeal-any-three").with_target(1)
    played = play(2, rules=rules, seed=1, key=b"redeal223")
    obs, per_entry = _watch(played.sessions[0].bodies)
    revealed = [e for b in per_entry for e in b if isinstance(e, DeckRevealed)]
    assert revealed[0].redeal and revealed[0].hand == 1
    table = [c for d in revealed[0].deals for who, c in zip(d.recipients, d.cards, strict=True)
             if who is None]
    assert max(sum(c.value == x.value for x in table) for c in table) >= 3
    assert all(isinstance(c, Card) for d in revealed[0].deals for c in d.cards)
    assert obs.end().verdict == VALID


def _forge_take(s: Session) -> bool:
    a = s._decided
    if not isinstance(a, PlayAction):
        return False
    table = s.game.hand.table
    s._decided = dataclasses.replace(a, take=() if a.take else (table[0],) if table
                                     else (Card(0),))
    return True


@pytest.mark.parametrize("n", [2, 4])
def test_a_cheat_is_a_verdict_event_at_the_cheating_entry(n):
    played = play(n, cheater=1, hook=_forge_take, seed=9, key=f"observe-forged-{n}".encode())
    obs = Observer()
    bodies = played.sessions[0].bodies
    verdicts = []
    for i, body in enumerate(bodies):
        got = [e for e in obs.feed(body) if isinstance(e, Verdict)]
        if got:
            verdicts.append((i, got))
    assert len(verdicts) == 1
    i, (v,) = verdicts[0]
    assert i == played.cheated_at == v.entry
    assert (v.verdict, v.code, v.blamed) == (INVALID, "illegal_move", 1)
    # Later entries only add the peers' claims; the verdict stands.
    assert obs.end() == v
    assert obs.aborts and all(a.blamed == 1 for a in obs.aborts)


def test_a_flipped_byte_is_blamed_on_nobody(honest2):
    bodies = list(honest2.sessions[0].bodies)
    b = bytearray(bodies[5])
    b[len(b) // 2] ^= 1
    bodies[5] = bytes(b)
    obs, per_entry = _watch(bodies)
    v = obs.verdict
    assert v is not None and (v.verdict, v.entry, v.blamed) == (INVALID, 5, None)
    assert per_entry[5][-1] == v and all(not batch for batch in per_entry[6:])


def test_a_stopped_transcript_is_incomplete_and_the_genesis_key_is_checked(honest2):
    bodies = honest2.sessions[0].bodies
    obs, _ = _watch(bodies[:30])
    assert obs.end().verdict == INCOMPLETE and obs.end().code == "unfinished"
    stranger = Observer(host_key=bytes(32))
    (v,) = stranger.feed(bodies[0])
    assert isinstance(v, Verdict) and (v.verdict, v.entry) == (INVALID, 0)


def test_the_observer_is_exported_from_the_package():
    assert chkobba_p2p.Observer is Observer


def _private_names(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return {n for n in names if n.startswith("_") and not n.endswith("__")}


@functools.cache
def _names_of(path: Path) -> tuple[frozenset[str], frozenset[str]]:
    """The names ``path`` uses (attributes, imports) and the private ones it defines:
    each module parsed once for the three owners below."""
    tree = ast.parse(path.read_text())
    used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    used |= {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    return frozenset(used), frozenset(_private_names(tree))


@pytest.mark.parametrize("owner", ["chkobba_p2p/transcript/session.py",
                                   "chkobba_p2p/transcript/driver.py", "chkobba_p2p/deal/core.py"])
def test_no_module_reaches_into_the_private_names_of_the_session_or_the_deal(owner):
    private = _private_names(ast.parse((ROOT / owner).read_text()))
    assert {"_apply", "_phase", "_after_finish", "_set_hand"} & private  # the check sees them
    offenders = {}
    for path in sorted([*ROOT.glob("chkobba_p2p/**/*.py"), *ROOT.glob("cli/**/*.py")]):
        if path == ROOT / owner:
            continue
        used, own = _names_of(path)
        bad = (used & private) - own
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}


# ------------------------------------------------------------------ the timeline


def test_a_timeline_steps_through_every_move_and_hand(honest2):
    from chkobba_p2p.timeline import build_timeline

    tl = build_timeline(honest2.sessions[0].bodies)
    assert tl.verdict.verdict == VALID and tl.offending is None
    events = [e for e in honest2.events[0] if isinstance(e, ENGINE | HandScored)]
    moves = [f.event for f in tl.frames if isinstance(f.event, ENGINE | HandScored)]
    assert moves == [_public(e) for e in events]
    assert isinstance(tl.frames[-1].event, Verdict)
    starts = tl.hand_starts()
    assert len(starts) == sum(isinstance(e, HandScored) for e in events)
    assert [tl.frames[s].hand for s in starts] == list(range(1, len(starts) + 1))
    # Move by move, clamped at both ends; hand by hand; back to a hand's start first.
    assert tl.step(0, -1) == 0 and tl.step(len(tl.frames) - 1, 5) == len(tl.frames) - 1
    assert tl.hand_step(0, 1) == starts[1]
    assert tl.hand_step(starts[1] + 3, -1) == starts[1]
    assert tl.hand_step(starts[1], -1) == starts[0]
    # Each hand's score comes with its cards, now known.
    scored = [f for f in tl.frames if isinstance(f.event, HandScored)]
    assert all(f.revealed is not None and f.revealed.hand == f.hand for f in scored)
    # The pictures follow the game: the table after a capture lacks what it took.
    for f in tl.frames:
        if isinstance(f.event, PlayEvent) and f.event.capture:
            assert not set(f.event.capture) & set(f.state.table)


def test_a_timeline_of_a_cheat_points_at_the_offending_entry():
    from chkobba_p2p.timeline import build_timeline

    played = play(2, cheater=1, hook=_forge_take, seed=9, key=b"timeline-forged")
    tl = build_timeline(played.sessions[0].bodies)
    assert tl.offending is not None
    bad = tl.frames[tl.offending]
    assert isinstance(bad.event, Verdict) and bad.event.blamed == 1
    assert bad.entry == played.cheated_at == bad.event.entry
    # The table shown at the violation is the one before the refused move.
    before = tl.frames[tl.offending - 1]
    assert before.entry < played.cheated_at


def test_a_timeline_shows_every_hand_face_up_once_its_seeds_opened(honest2):
    """Each deal, cut and play of a finished hand knows every seat's cards in hand then:
    the very hands of the rules engine driven by the audit's full-knowledge record."""
    from chkobba_p2p.game.cards import card
    from chkobba_p2p.game.rules import Hand, Ruleset
    from chkobba_p2p.observe.audit import audit_bodies
    from chkobba_p2p.timeline import build_timeline

    bodies = honest2.sessions[0].bodies
    tl = build_timeline(bodies)
    records = [r for r in audit_bodies(bodies, workers=0).records if r["type"] == "hand"]
    checked = 0
    for rec in records:
        steps = [f for f in tl.frames if f.hand == rec["number"]
                 and isinstance(f.event, DealEvent | CutEvent | PlayEvent)]
        events = [next(iter(e.items())) for e in rec["events"]]
        events = [(k, b) for k, b in events if k != "sweep"]
        assert len(steps) == len(events) and not rec["redeals"]
        hand = Hand.new(Ruleset.from_dict(rec["ruleset"]), rec["players"], rec["dealer"])
        for f, (kind, b) in zip(steps, events, strict=True):
            if kind == "deal":
                hand = hand.deal([card(c) for c in b["cards"]])
            elif kind == "cut":
                hand = hand.choose_cut(b["keep"], card(b["card"]) if b["card"] else None)
            else:
                hand = hand.play(b["seat"], card(b["card"]), [card(c) for c in b["capture"]])
            assert f.held is not None
            assert [sorted(h) for h in f.held] == [sorted(h) for h in hand.hands]
            checked += 1
    assert checked > 100
    # A hand whose seeds never opened (the game stopped in it) stays face down.
    stopped = play(2, seed=4, key=b"timeline-stopped", stop_after=100)
    tl = build_timeline(stopped.sessions[0].bodies)
    last = tl.frames[-1].hand
    assert all(f.held is None for f in tl.frames if f.hand == last)
    assert any(f.held is not None for f in tl.frames if f.hand < last)


def test_a_team_s_verdict_in_names_takes_the_plural():
    """At 4 players the winning side is two people: 'bot3 & bot1 win 4-0', not 'wins'."""
    four, two = ["amel", "bot3", "bot2", "bot1"], ["amel", "sami"]
    done = Verdict(VALID, None, "complete", winner=1, totals=(0, 4))
    assert words(done, EN, names=four) == "complete: bot3 & bot1 win 4-0"
    assert words(done, EN, names=two) == "complete: sami wins 4-0"
    resigned = Verdict(VALID, "resigned", "resigned", by_seat=0, entry=20, winner=1)
    assert words(resigned, EN, names=four) == ("amel resigned (entry #20): bot3 & bot1 win "
                                               "the match by resignation")
    assert words(resigned, EN, names=two).endswith("sami wins the match by resignation")
    assert words(resigned, Translator("fr"), names=four) == (
        "amel a abandonné (entrée n° 20) : bot3 & bot1 gagnent la partie par abandon")
