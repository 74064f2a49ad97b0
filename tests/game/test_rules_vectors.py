"""Rules vectors (tests/vectors/rules_positions.json, rules_openings.json), checked
against the engine and against the slow reference of tests/support/rules_reference.py.

A client in another language checks its rules on the same files (PROTOCOL.md section 16
says the format).  Regenerate (only when the rules or the format deliberately change)
with ``PYTHONPATH=.:tests python tests/game/test_rules_vectors.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from support import rules_reference as ref

from chkobba_p2p import errors
from chkobba_p2p.game.cards import DECK, Card, card, cards
from chkobba_p2p.game.rules import (
    PRESETS,
    CutterChoice,
    DealStep,
    Hand,
    Move,
    Opening,
    Redeal,
    RedealRule,
    Ruleset,
    Scoring,
    Turn,
)

VECTORS = Path(__file__).parent.parent / "vectors"
POSITIONS = VECTORS / "rules_positions.json"
OPENINGS = VECTORS / "rules_openings.json"

#: The refusals a vector may name (the engine's IllegalMove subclasses).
REFUSALS = ("CardNotInHand", "CaptureNotOnTable", "GroupDoesNotSum", "RankMatchRequired",
            "CaptureRequired", "ForcedCaptureRequired")


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def texts(cs) -> list[str]:
    return [c.text for c in cs]


def hand_of_vector(v: dict) -> Hand:
    return Hand.from_position(
        Ruleset.from_dict(v["ruleset"]), v["players"], v["dealer"],
        hands=[cards(" ".join(h)) for h in v["hands"]], table=cards(" ".join(v["table"])),
        turn=v["turn"], stock=len(v["stock"]), piles=[cards(" ".join(p)) for p in v["piles"]],
        chkobbas=v["chkobbas"], last_capturer=v["last_capturer"])


def deal_from(hand: Hand, stock: list[Card]) -> Hand:
    while isinstance(hand.pending, DealStep):
        k = len(hand.pending.recipients)
        hand = hand.deal(stock[:k])
        del stock[:k]
    return hand


def legal_texts(hand: Hand) -> list[str]:
    return sorted(m.text for m in hand.legal_moves())


def refusal_of(hand: Hand, move: Move) -> str | None:
    try:
        hand.apply(move)
    except errors.IllegalMove as exc:
        return type(exc).__name__
    return None


# ----------------------------------------------------------------- the checks


@pytest.fixture(scope="module")
def positions() -> list[dict]:
    data = load(POSITIONS)
    assert data["format"] == "chkobba-rules-positions/1"
    return data["positions"]


def test_the_vectors_cover_every_preset_and_table_size(positions):
    seen = {(Ruleset.from_dict(v["ruleset"]).name.split("+")[0], v["players"])
            for v in positions}
    assert seen == {(p, n) for p in PRESETS for n in (2, 3, 4)}
    names = {Ruleset.from_dict(v["ruleset"]).name for v in positions}
    assert any("+" in n for n in names)  # variants too
    assert {v["refusal"]["error"] for v in positions} == set(REFUSALS)


def test_positions_legal_moves_refusal_and_score_are_the_engine_s(positions):
    for v in positions:
        hand = hand_of_vector(v)
        assert legal_texts(hand) == v["legal"], v["name"]
        refused = v["refusal"]
        assert refusal_of(hand, Move.parse(refused["move"])) == refused["error"], v["name"]
        stock = list(cards(" ".join(v["stock"])))
        for text in v["playout"]:
            move = Move.parse(text)
            assert move in hand.legal_moves(), (v["name"], text)
            hand = deal_from(hand.apply(move), stock)
        assert hand.is_over and not stock
        assert hand.score.to_dict() == v["score"], v["name"]


def test_positions_agree_with_the_reference(positions):
    for v in positions:
        rules = Ruleset.from_dict(v["ruleset"])
        forced = rules.forced_capture
        hand = [card(t).id for t in v["hands"][v["turn"]]]
        table = [card(t).id for t in v["table"]]
        legal = ref.legal(hand, table, forced)
        assert {Move.parse(t) for t in v["legal"]} == {
            Move(Card(c), frozenset(map(Card, o))) for c, o in legal}
        m = Move.parse(v["refusal"]["move"])
        assert ref.refusal(hand, table, forced, m.card.id,
                           frozenset(c.id for c in m.capture)) == v["refusal"]["error"]


def test_openings_are_the_engine_s():
    data = load(OPENINGS)
    assert data["format"] == "chkobba-rules-openings/1"
    seen = set()
    for v in data["openings"]:
        rules = Ruleset.from_dict(v["ruleset"])
        seen.add((rules.opening, rules.redeal, v["redeal"], v["players"]))
        got = open_hand(rules, v["players"], v["dealer"], list(cards(" ".join(v["deck"]))),
                        v["keep"])
        assert got == {k: v[k] for k in ("redeal", "hands", "table", "turn")}, v["name"]
        model = ref.RefHand(v["players"], v["dealer"], [card(t).id for t in v["deck"]],
                            opening=rules.opening.value, keep=bool(v["keep"]),
                            redeal=rules.redeal.value, forced=rules.forced_capture,
                            use_primiera=rules.scoring is Scoring.PRIMIERA)
        assert model.needs_redeal == v["redeal"]
        if not v["redeal"]:
            assert [[Card(c).text for c in h] for h in model.hands] == v["hands"]
            assert [Card(c).text for c in model.table] == v["table"]
    assert {(o, r) for o, r, redeal, _ in seen if redeal} >= {
        (Opening.PLAIN, RedealRule.KINGS), (Opening.PLAIN, RedealRule.ANY_THREE)}
    assert {n for *_, n in seen} == {2, 3, 4}


def open_hand(rules: Ruleset, players: int, dealer: int, deck: list[Card],
              keep: bool | None) -> dict:
    hand = Hand.new(rules, players, dealer)
    while True:
        step = hand.pending
        if isinstance(step, DealStep):
            hand = deal_from(hand, deck)
        elif isinstance(step, CutterChoice):
            assert keep is not None
            hand = hand.choose_cut(keep)
        elif isinstance(step, Redeal):
            return {"redeal": True, "hands": None, "table": None, "turn": None}
        else:
            assert isinstance(step, Turn)
            return {"redeal": False, "hands": [texts(h) for h in hand.hands],
                    "table": texts(hand.table), "turn": hand.turn}


# ----------------------------------------------------------------- generation


def _candidates(rng: random.Random, hand: Hand) -> list[Move]:
    """Plays worth trying at a position: most are refused, each for its own rule."""
    mine = [c for c in hand.hand_of(hand.turn) if c is not None]
    table = list(hand.table)
    others = [c for s, h in enumerate(hand.hands) if s != hand.turn for c in h
              if c is not None]
    out = [Move(c) for c in mine]
    out += [Move(c, frozenset([t])) for c in mine for t in table]
    out += [Move(c, frozenset([t, u])) for c in mine for t in table for u in table if t < u]
    if others:
        out.append(Move(rng.choice(others)))
    captured = sorted(c for p in hand.piles for c in p)
    if captured and mine:
        out.append(Move(mine[0], frozenset([rng.choice(captured)])))
    return out


def _snapshot(name: str, hand: Hand, stock: list[Card], refusal: Move,
              rng: random.Random) -> dict:
    v = {
        "name": name,
        "ruleset": hand.ruleset.to_dict(),
        "players": hand.players,
        "dealer": hand.dealer,
        "turn": hand.turn,
        "hands": [texts(h) for h in hand.hands],
        "table": texts(hand.table),
        "piles": [texts(sorted(p)) for p in hand.piles],
        "chkobbas": list(hand.chkobbas),
        "last_capturer": hand.last_capturer,
        "stock": texts(stock),
        "legal": legal_texts(hand),
        "refusal": {"move": refusal.text, "error": refusal_of(hand, refusal)},
    }
    playout = []
    rest = list(stock)
    while not hand.is_over:
        move = rng.choice(sorted(hand.legal_moves(), key=lambda m: m.text))
        playout.append(move.text)
        hand = deal_from(hand.apply(move), rest)
    v["playout"] = playout
    v["score"] = hand.score.to_dict()
    return v


def _generate_positions() -> list[dict]:
    rng = random.Random(29)
    rulesets = [
        *PRESETS.values(),
        PRESETS["tunisian"].with_variant("forced-capture"),
        PRESETS["tunisian"].with_variant("primiera"),
        PRESETS["cardavia"].with_variant("free-capture").with_variant("barmila"),
        PRESETS["chkoum"].with_variant("forced-capture").with_variant("primiera"),
    ]
    out: list[dict] = []
    wanted = {error: 0 for error in REFUSALS}
    for rules in rulesets:
        for players in (2, 3, 4):
            made = 0
            while made < 4:
                deck = list(DECK)
                rng.shuffle(deck)
                hand = Hand.new(rules, players, rng.randrange(players))
                while not isinstance(hand.pending, Turn | Redeal):
                    if isinstance(hand.pending, CutterChoice):
                        hand = hand.choose_cut(rng.random() < 0.5)
                    else:
                        hand = deal_from(hand, deck)
                if isinstance(hand.pending, Redeal):
                    continue
                # Snapshot at a random turn (late ones often: the score is near).
                stop = rng.randrange(24 if made % 2 else 0, 36)
                for _ in range(stop):
                    move = rng.choice(sorted(hand.legal_moves(), key=lambda m: m.text))
                    hand = deal_from(hand.apply(move), deck)
                refused = [(refusal_of(hand, m), m) for m in _candidates(rng, hand)]
                refused = [(e, m) for e, m in refused if e is not None]
                if not refused:
                    continue
                # The rarest refusal so far, so that every rule is pinned somewhere.
                error, move = min(refused, key=lambda em: (wanted[em[0]], rng.random()))
                wanted[error] += 1
                name = f"{rules.name}-{players}p-{made}"
                out.append(_snapshot(name, hand, deck, move, rng))
                made += 1
    return out


def _generate_openings() -> list[dict]:
    rng = random.Random(2929)
    out: list[dict] = []
    rulesets = [PRESETS["tunisian"], PRESETS["cardavia"],
                PRESETS["tunisian"].with_variant("redeal-any-three"),
                PRESETS["chkoum"].with_variant("redeal-any-three"),
                PRESETS["tunisian"].with_variant("no-redeal")]
    for rules in rulesets:
        for players in (2, 3, 4):
            for redeal in (False, True):
                for _ in range(20000):
                    deck = list(DECK)
                    rng.shuffle(deck)
                    if redeal and rules.opening is Opening.PLAIN:
                        # Put three kings (or three alike) where the table is dealt.
                        v = 10 if rules.redeal.value == "kings" else rng.randint(1, 10)
                        alike = [c for c in deck if c.value == v][:3]
                        rest = [c for c in deck if c not in alike]
                        k = 3 * players
                        deck = rest[:k] + alike + rest[k:]
                    keep = rng.random() < 0.5 if rules.opening is Opening.CUT_AND_DRAW \
                        else None
                    dealer = rng.randrange(players)
                    got = open_hand(rules, players, dealer, list(deck), keep)
                    if got["redeal"] == redeal:
                        break
                else:
                    continue  # that rule never redeals
                out.append({"name": f"{rules.name}-{players}p-{'redeal' if redeal else 'play'}",
                            "ruleset": rules.to_dict(), "players": players, "dealer": dealer,
                            "keep": keep, "deck": texts(deck), **got})
    return out


def generate() -> None:  # pragma: no cover - run by hand
    POSITIONS.write_text(json.dumps({
        "format": "chkobba-rules-positions/1",
        "about": "PROTOCOL.md section 16: positions with their legal moves, the refusal of "
                 "an illegal play, and a playout to the end of the hand with its score",
        "positions": _generate_positions()}, indent=1) + "\n")
    OPENINGS.write_text(json.dumps({
        "format": "chkobba-rules-openings/1",
        "about": "PROTOCOL.md section 16: a shuffled deck (top first) and the cutter's "
                 "choice, and the opening it deals: a redeal, or the hands, table and turn",
        "openings": _generate_openings()}, indent=1) + "\n")


if __name__ == "__main__":  # pragma: no cover
    generate()
