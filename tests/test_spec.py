"""PROTOCOL.md made precise (found by writing a client from it alone), each statement
checked against the reference implementation: the appendices are exact copies of
``docs/``, the deal secrets' derivation (7.1), the one Fisher-Yates stream, valid points,
the first-dealer draw without proofs, when instances start and the cutter cuts, which
turn carries which deal message (6.2), the ranges of share positions, the capabilities a
joiner announces (3), and RULES.md's primiera when no side holds every suit.

``REGENERATE_PROTOCOL_APPENDICES=1 pytest tests/test_spec.py`` rewrites PROTOCOL.md's
appendices from ``docs/deal.md`` and ``docs/shuffle-proof.md`` (the one source)."""

from __future__ import annotations

import hashlib
import os
import re

import pytest
from support.audit import play
from support.net import REPO_ROOT

from chkobba_p2p.deal.crypto import expand_commit_randomizers, expand_permutation
from chkobba_p2p.deal.group import InvalidGroupElement, L, decode_point
from chkobba_p2p.game.cards import cards
from chkobba_p2p.game.rules import Ruleset, Scoring, score_piles
from chkobba_p2p.link.handshake import ClientHandshake, HostHandshake, Lobby
from chkobba_p2p.transcript.caps import (
    CAP_EARLY_DEAL,
    CAP_PROOF_APART,
    CAP_READY_CHECK,
    CAP_SHARES_RIDE,
    CAP_SHUFFLE_PROOFS,
    LINK_CAPABILITIES,
    SPOKEN,
)
from chkobba_p2p.transcript.driver import DeckInstance
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity, ProtocolError

PROTOCOL = REPO_ROOT / "PROTOCOL.md"
APPENDICES = (("# Appendix A. The deal sub-protocol", "docs/deal.md",
               "*Copied from `docs/deal.md` (headings shifted one level); that file is the "
               "source: edit it and regenerate (tests/test_spec.py).*"),
              ("# Appendix B. The shuffle proof", "docs/shuffle-proof.md",
               "*Copied from `docs/shuffle-proof.md` (headings shifted one level); that file "
               "is the source: edit it and regenerate (tests/test_spec.py).*"))


def _appendix(title: str, source: str, note: str) -> str:
    """PROTOCOL.md's appendix generated from its source: the title line, the note, then
    the document without its own title, every heading one level deeper."""
    lines = (REPO_ROOT / source).read_text(encoding="utf-8").split("\n")
    assert lines[0].startswith("# ")
    body = "\n".join("#" + ln if re.match(r"^#{2,} ", ln) else ln for ln in lines[1:])
    return f"{title}\n\n{note}\n{body.rstrip()}\n"


def _split(text: str) -> tuple[str, list[str]]:
    starts = [text.index(title) for title, _, _ in APPENDICES]
    head = text[:starts[0]]
    parts = [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]
    return head, parts


def test_appendices_are_exactly_the_docs():
    text = PROTOCOL.read_text(encoding="utf-8")
    head, parts = _split(text)
    want = [_appendix(*a) for a in APPENDICES]
    if os.environ.get("REGENERATE_PROTOCOL_APPENDICES") == "1":
        PROTOCOL.write_text(head + "\n---\n\n".join(want), encoding="utf-8")
        return
    got = [p.removesuffix("\n---\n\n") for p in parts]
    for g, w, (title, source, _) in zip(got, want, APPENDICES, strict=True):
        assert g == w, (f"{title} differs from {source}: run with "
                        "REGENERATE_PROTOCOL_APPENDICES=1")
    # `H` is the joint key everywhere, `Hash` the hash: one name, one meaning.
    assert "H(tag" not in text and "`H(" not in text


# ------------------------------------------------------------------ section 7.1


def _hash(tag: bytes, *parts: bytes) -> bytes:
    """Appendix A §1's Hash, written from the text."""
    h = hashlib.sha512(len(tag).to_bytes(2, "big") + tag)
    for p in parts:
        h.update(len(p).to_bytes(4, "big") + p)
    return h.digest()


def test_deal_secrets_derive_as_section_7_1_says():
    played = play(2, key=b"spec", proofs=False)
    table = played.sessions[0].table
    master = bytes(range(32))
    inst = DeckInstance(table, 1, master, 3, 2, 0, [])
    tag = b"chkobba-p2p/v1/deal-secret"
    ctx = (table.game, (3).to_bytes(8, "big"), (2).to_bytes(8, "big"))
    assert inst.own_seed == _hash(tag, master, *ctx, b"seed")[:32]
    x = int.from_bytes(_hash(tag, master, *ctx, b"key"), "little") % L or 1
    assert inst.deal._x == x
    k = int.from_bytes(_hash(tag, master, *ctx, b"cut"), "little") % L % 40
    assert inst._cut_k == k


def _fisher_yates_from_the_text(seed: bytes) -> list[int]:
    tag = b"chkobba-p2p/deal/v1/shuffle-perm"
    ints: list[int] = []
    block = 0

    def draw() -> int:
        nonlocal block
        if not ints:
            digest = _hash(tag, seed, block.to_bytes(8, "big"))
            ints.extend(int.from_bytes(digest[i:i + 4], "big") for i in range(0, 64, 4))
            block += 1
        return ints.pop(0)

    perm = list(range(40))
    for i in range(39, 0, -1):
        b = i + 1
        while (v := draw()) >= 2**32 - (2**32 % b):
            pass
        j = v % b
        perm[i], perm[j] = perm[j], perm[i]
    return perm


def test_the_proofs_commitment_randomness_derives_as_section_3_2_says():
    seed, context = bytes(range(32)), bytes(range(64, 128))
    tag = b"chkobba-p2p/deal/v1/shuffle-proof-commit"
    want = [int.from_bytes(_hash(tag, seed, context, j.to_bytes(8, "big")), "little") % L or 1
            for j in range(40)]
    assert expand_commit_randomizers(seed, context) == want


def test_the_fisher_yates_stream_continues_across_positions():
    for n in range(20):
        seed = hashlib.sha256(bytes([n])).digest()
        assert expand_permutation(seed) == _fisher_yates_from_the_text(seed)


def test_valid_points_include_the_identity():
    assert decode_point(bytes(32)) == bytes(32)
    for bad in (bytes([1]) + bytes(31), b"\xff" * 32, bytes(31)):
        with pytest.raises(InvalidGroupElement):
            decode_point(bad)


# --------------------------------------------------------- deal messages in the chain


def _items(played):
    """(index, seat, items, action) of every turn of seat 0's transcript."""
    out = []
    for i, body in enumerate(played.sessions[0].bodies):
        e = wire.open_entry(body)
        if e.kind == "turn":
            out.append((i, e.seat, e.fields.get("d") or [], e.fields.get("a")))
    return out


@pytest.fixture(scope="module")
def proven_match():
    return play(2, key=b"spec-proofs", proofs=True, seed=5, apart=True)


def test_first_dealer_draw_deck_has_no_proof_field(proven_match):
    turns = _items(proven_match)
    shuffles = [(i, d) for i, _, items, _ in turns for d in items if d["t"] == "deal/shuffle"]
    first_reveal = min(i for i, _, items, _ in turns
                       if any(d["t"] == "deal/reveal" for d in items))
    draw = [d for i, d in shuffles if i <= first_reveal]
    later = [d for i, d in shuffles if i > first_reveal]
    assert len(draw) == 2 and all("proof" not in d for d in draw)
    # proof-apart/v1 (every seat speaks it): each later shuffle's proof travels after its
    # deck, in a deal/proof of the same seat.
    assert CAP_PROOF_APART in proven_match.sessions[0].table.caps
    assert later and all("proof" not in d for d in later)
    proofs = [(i, s, d) for i, s, items, _ in turns for d in items if d["t"] == "deal/proof"]
    assert len(proofs) == len(later) and all(isinstance(d["proof"], bytes)
                                             for _, _, d in proofs)
    shuffled = [(i, s) for i, s, items, _ in turns if i > first_reveal
                for d in items if d["t"] == "deal/shuffle"]
    for seat in range(2):
        mine = [i for i, s in shuffled if s == seat]
        theirs = [i for i, s, _ in proofs if s == seat]
        assert len(mine) == len(theirs) and all(a <= b for a, b in zip(mine, theirs))


def test_instances_start_and_the_cutter_cuts_when_the_text_says(proven_match):
    turns = _items(proven_match)
    n = 2
    # Instance (0, 0) starts with the last ready: every seat's first turn has its key.
    first = turns[:n]
    assert [t[0] for t in first] == [n + 1, n + 2]  # genesis, n readies, then turns
    assert all(t[2] and t[2][0]["t"] == "deal/key" for t in first)
    # The cutter's cut: in the turn carrying the last shuffle when it shuffles last, else
    # in its first turn after the last shuffle.
    for i, seat, items, _ in turns:
        kinds = [d["t"] for d in items]
        if "deal/cut" in kinds:
            prev_shuffles = [j for j, _, its, _ in turns if j < i
                             and any(d["t"] == "deal/shuffle" for d in its)]
            if "deal/shuffle" in kinds:
                assert kinds.index("deal/shuffle") < kinds.index("deal/cut")
            else:
                assert prev_shuffles and turns[[t[0] for t in turns].index(
                    prev_shuffles[-1])][1] != seat


def test_share_positions_are_strictly_increasing_deck_positions(proven_match):
    seen = 0
    for _, _, items, _ in _items(proven_match):
        for d in items:
            if d["t"] == "deal/shares":
                pos = d["pos"]
                assert 1 <= len(pos) <= 40 and pos == sorted(set(pos))
                assert all(0 <= p <= 39 for p in pos)
                seen += 1
    assert seen


def test_a_seats_own_entry_never_carries_what_it_causes(proven_match):
    """6.2: the items of a turn's ``d`` were produced before it was signed.  Replaying
    seat 0's transcript, every deal message of a turn's ``d`` is already owed (or held
    back as early) by its sender's deal when the entry before it is applied: a turn's
    own action never produces items for its ``d`` -- checked through the cut, whose step
    opens only after it.  Under shares-ride/v1 (in effect here: every seat speaks it) the
    cutter's shares for that step ride in the cut's own ``p``, applied after the action;
    without it they come in the cutter's next turn."""
    turns = _items(proven_match)
    ride = CAP_SHARES_RIDE in proven_match.sessions[0].caps
    assert ride
    bodies = proven_match.sessions[0].bodies
    for i, _, items, action in turns:
        if action and action.get("t") == "cut":
            assert not any(d["t"] == "deal/shares" and d["step"] == 1 for d in items)
            after = wire.open_entry(bodies[i]).fields.get("p") or []
            assert any(d["t"] == "deal/shares" and d["step"] == 1 for d in after)


# ---------------------------------------------------------------- capabilities (3)


def test_host_caps_announce_the_tables_shuffle_proofs():
    host = Identity.generate()
    for proofs in (True, False):
        lobby = Lobby(host, "h", Ruleset(), 2, shuffle_proofs=proofs)
        greeting = HostHandshake(lobby).greeting()
        assert (CAP_SHUFFLE_PROOFS in greeting["caps"]) is proofs
        # The table's capabilities, and the link ones the host speaks (the ready check).
        assert set(greeting["caps"]) == set(lobby.caps) | set(LINK_CAPABILITIES)
        assert set(SPOKEN) == {"deal/v1", "resume/v1", CAP_SHUFFLE_PROOFS, CAP_EARLY_DEAL,
                               CAP_READY_CHECK, "rematch/v1", "rematch-offer/v1",
                               CAP_PROOF_APART, "shares-ride/v1", "next-deck/v1",
                               "seat-deal/v1", "ready-caps/v1", "late-reveal/v1"}
        assert (CAP_PROOF_APART in greeting["caps"]) is proofs
        # late-reveal/v1 only beside shuffle proofs: without them the reveal is the
        # deck's only check, and the hand waits for it (PROTOCOL.md 6.2).
        assert ("late-reveal/v1" in greeting["caps"]) is proofs


@pytest.mark.parametrize("caps, proofs, refused", [
    (["deal/v1", "resume/v1"], True, True),  # cannot check proofs: refused
    (["deal/v1", "resume/v1"], False, False),
    (["deal/v1", CAP_SHUFFLE_PROOFS], True, False),  # no resume: seated all the same
])
def test_what_a_joiner_announces(caps, proofs, refused):
    host, guest = Identity.generate(), Identity.generate()
    lobby = Lobby(host, "h", Ruleset(), 2, shuffle_proofs=proofs)
    hs = HostHandshake(lobby)
    c = ClientHandshake(guest, "g")
    hello = c.on_host(hs.greeting())
    hello = c.seal_hello({**{k: v for k, v in hello.items() if k != "pop"}, "caps": caps})
    if refused:
        with pytest.raises(ProtocolError) as info:
            hs.on_hello(hello)
        assert info.value.error_code == ErrorCode.BAD_FIELD
        assert "shuffle-proof/v1" in str(info.value)
        assert lobby.seats[1] is None
    else:
        assert hs.on_hello(hello)[1] == 1


# -------------------------------------------------------------------- RULES.md


def test_primiera_when_no_side_holds_every_suit():
    rules = Ruleset(scoring=Scoring.PRIMIERA)

    # Neither side holds all four suits: nobody takes the point, whatever the sums.
    a, b = cards("7S 7H 7D 6S 6H"), cards("1S 1H 1C 2C")
    assert score_piles((a, b), (0, 0), rules, 2).categories["primiera"] is None
    # All four suits beat three, even against a higher sum of best cards.
    full, three = cards("2S 2H 2D 2C"), cards("7S 7H 7D 6S")
    assert score_piles((full, three), (0, 0), rules, 2).categories["primiera"] == 0
    assert score_piles((three, full), (0, 0), rules, 2).categories["primiera"] == 1
