"""Capabilities: every name a table or a link may announce, and which are in effect.

Table capabilities sit in the genesis (``caps``) and change how the game is played;
link capabilities travel only in the greeting (``host``, ``hello``, ``welcome``) and
never in the genesis.  A binding table capability is in effect only when the genesis
holds it and every seat's ``ready`` lists it (:func:`effective_caps`, PROTOCOL.md 3).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "CAP_EARLY_DEAL",
    "CAP_SHUFFLE_PROOFS",
    "CAP_PROOF_APART",
    "CAP_SHARES_RIDE",
    "RIDE_FIELDS",
    "CAP_NEXT_DECK",
    "NEXT_FIELDS",
    "CAP_SEAT_DEAL",
    "CAP_LATE_REVEAL",
    "LATE_FIELDS",
    "TABLE_CAPABILITIES",
    "BINDING_CAPABILITIES",
    "IMPLEMENTED_CAPABILITIES",
    "PROOF_CAPABILITIES",
    "effective_caps",
    "CAP_READY_CHECK",
    "CAP_REMATCH",
    "CAP_REMATCH_OFFER",
    "LINK_CAPABILITIES",
    "CAPABILITIES",
    "CAP_READY_CAPS",
    "CAP_KNOCK",
    "SPOKEN",
]

#: Table capability (in the genesis): a seat the game waits for may send the deal
#: messages it owes in a ``turn`` without its action, and choose on a later pass, so that
#: the others get their cards while it thinks (PROTOCOL.md 6.2).  The host puts it in
#: the genesis only when every seated peer announced it in its ``hello``; binding: in
#: effect only when every seat's ``ready`` lists it too (:func:`effective_caps`).
CAP_EARLY_DEAL = "early-deal/v1"
#: Table capability (in the genesis): the deal messages a seat's own ``turn`` causes when
#: it is applied (the shares of a dealing step its action opens, its reveal of an
#: instance the entry finishes, its key of the instance that starts there) ride in that
#: very entry, in its field ``p``, applied after the action, instead of waiting for the
#: seat's next turn (PROTOCOL.md 6.2).  The host puts it in the genesis only when every
#: seated peer announced it in its ``hello``; binding: in effect only when every seat's
#: ``ready`` lists it too (:func:`effective_caps`).
CAP_SHARES_RIDE = "shares-ride/v1"
# The turn's field shares-ride/v1 adds: at a table where it is not in effect, an unknown
# field, counted in the unknown fields' budget as a peer of before it counts it.
RIDE_FIELDS = frozenset({"p"})
#: Table capability (in the genesis): the next hand's first deck (``hand + 1``, instance
#: 0) is built during the current hand.  A ``turn`` may carry, in its field ``b``, deal
#: messages for that deck that reveal no card (``deal/key``, ``deal/shuffle``,
#: ``deal/proof``, ``deal/cut``), each in the deal's own order, applied after the turn's
#: ``d``, action and ``p``; so once the last card of a hand is played, the next deck is
#: (mostly) shuffled and cut (PROTOCOL.md 6.2, 7.1).  The host puts it in the genesis only
#: when every seated peer announced it in its ``hello``; binding: in effect only when
#: every seat's ``ready`` lists it too (:func:`effective_caps`).
CAP_NEXT_DECK = "next-deck/v1"
# The turn's field next-deck/v1 adds: at a table where it is not in effect, an unknown
# field, counted in the unknown fields' budget as a peer of before it counts it.
NEXT_FIELDS = frozenset({"b"})
#: Table capability (in the genesis): at 3 and 4 players a seat may release its shares
#: of a seat's cards of the next round of the same deck once both hands are empty, before
#: the rules deal that round; the receivers check them then, and the round is dealt with
#: each seat's own cards opening to it as its last share comes (PROTOCOL.md 6.2, "Shares
#: without a floor round").  No share is owed early: the early release is the sender's
#: policy.  Binding: in effect only when every seat's ``ready`` lists it too
#: (:func:`effective_caps`).  No effect at 2 players.
CAP_SEAT_DEAL = "seat-deal/v1"

#: Table capability (in the genesis, only beside shuffle-proof/v1): a hand that does not
#: end the match is scored from its plays at the entry that ends it, and the next hand
#: starts there, on the deck built during it (next-deck/v1); each seat's ``deal/reveal``
#: of the finished deck rides on its next turn, in the field ``r``, checked where it
#: arrives, and is due before the next deck finishes (PROTOCOL.md 6.2, 7.4).  In play only
#: with shuffle-proof/v1 and next-deck/v1 in effect too (the proofs have checked every
#: shuffle already: the reveal is a second check, not the only one).  The host puts it in
#: the genesis only with shuffle proofs and when every seated peer announced it in its
#: ``hello``; binding: in effect only when every seat's ``ready`` lists it too.
CAP_LATE_REVEAL = "late-reveal/v1"
# The turn's field late-reveal/v1 adds (an unknown field where it is not in play).
LATE_FIELDS = frozenset({"r"})
#: The table capabilities of a genesis by default (without shuffle proofs).  The link
#: capabilities (the ready check, rematch, its offer), which the genesis never lists, are below.
TABLE_CAPABILITIES = ("deal/v1", "resume/v1", CAP_EARLY_DEAL, CAP_SHARES_RIDE, CAP_NEXT_DECK,
                      CAP_SEAT_DEAL)

#: Table capability (in the genesis): every shuffle step carries a zero-knowledge proof.
CAP_SHUFFLE_PROOFS = "shuffle-proof/v1"
#: Table capability (in the genesis, only beside shuffle-proof/v1): a shuffler sends its
#: deck in ``deal/shuffle`` at once and its shuffle proof after it, in ``deal/proof``; every
#: seat shuffles on top at once and checks the proofs alongside, and no seat releases a
#: decryption share of the instance before every proof of it verified there (PROTOCOL.md
#: Appendix A 4.1).  The host puts it in the genesis only when every seated peer announced
#: it in its ``hello``; binding: in effect only when every seat's ``ready`` lists it too.
CAP_PROOF_APART = "proof-apart/v1"
#: The table capabilities that change how every seat plays: one of them is in effect only
#: when the genesis holds it and every seat's ``ready`` lists it (:func:`effective_caps`),
#: so that a host cannot impose one on a seat that does not speak it (only the host sees
#: the hellos).
BINDING_CAPABILITIES = (CAP_EARLY_DEAL, CAP_PROOF_APART, CAP_SHARES_RIDE, CAP_NEXT_DECK,
                        CAP_SEAT_DEAL, CAP_LATE_REVEAL)
#: Every table capability this implementation plays (a seat's ``ready.caps`` is the
#: genesis's ``caps`` that it holds).
IMPLEMENTED_CAPABILITIES = TABLE_CAPABILITIES + (CAP_SHUFFLE_PROOFS, CAP_PROOF_APART,
                                                 CAP_LATE_REVEAL)
#: The table capabilities a host puts in the genesis beside :data:`TABLE_CAPABILITIES`
#: when it chooses shuffle proofs (each binding one only when every seat speaks it).
PROOF_CAPABILITIES = (CAP_SHUFFLE_PROOFS, CAP_PROOF_APART, CAP_LATE_REVEAL)


def effective_caps(genesis: Sequence[str], readies: Sequence[Sequence[str] | None]
                   ) -> tuple[str, ...]:
    """The table capabilities in effect (PROTOCOL.md 3): those of the ``genesis``, less
    each binding one (:data:`BINDING_CAPABILITIES`) that some seat's ready does not list.
    ``readies``: each seat's ``ready.caps`` (None: the ready has no ``caps``, a peer of
    before the field).  When no ready has the field (a log made before it), the genesis
    alone decides, as it did then.  A cap a ready lists and the genesis lacks counts
    for nothing."""
    if all(r is None for r in readies):
        return tuple(genesis)
    return tuple(c for c in genesis if c not in BINDING_CAPABILITIES
                 or all(r is not None and c in r for r in readies))

#: Link capability (``host``/``hello`` caps, never in the genesis): before the game, the
#: host waits for a ``start`` link message from each seat that announced it (its person
#: checked the seats and fingerprints and pressed Enter) before it makes the genesis.
CAP_READY_CHECK = "ready-check/v1"
#: Link capability: once the match is over, a joining peer may tell the host whether its
#: person accepts playing again at the same table (a ``rematch`` link message).
CAP_REMATCH = "rematch/v1"
#: Link capability: once the match is over, a joining peer that announced it is told
#: when the host's person wants to play again, before it answers (a ``rematch-offer``
#: link message); a joiner without it hears only the host's ``rematch`` (PROTOCOL.md 17).
CAP_REMATCH_OFFER = "rematch-offer/v1"
#: The link-only ones, which the genesis never lists.
LINK_CAPABILITIES = (CAP_READY_CHECK, CAP_REMATCH, CAP_REMATCH_OFFER)
#: Capabilities this implementation announces.  Peers use the intersection; unknown ones
#: are ignored (additions only).
CAPABILITIES = TABLE_CAPABILITIES + LINK_CAPABILITIES
#: Announced in a hello: this joiner's ``ready`` lists the genesis capabilities it plays
#: (``ready.caps``, PROTOCOL.md 6.1), which a binding capability needs to be in effect.
#: A peer of before that field announces binding capabilities but never confirms them:
#: the host leaves them out of the genesis rather than start a table where that honest
#: peer would play them and the others not.  Never in a genesis, nothing to do for the
#: caller (the session writes the field), so a hello carries it by default.
CAP_READY_CAPS = "ready-caps/v1"
#: Link capability the host announces in the greeting of a **running** game (only then does
#: a knock mean anything): a seat of the game may open its next connections with a
#: ``knock`` citing this greeting's nonce, and be admitted from that first frame
#: (PROTOCOL.md 5.4).  Not in a lobby's greeting, nor in ``hello``/``welcome`` caps: a
#: joiner knocks, it announces nothing.
CAP_KNOCK = "knock/v1"
#: What this implementation speaks (``hello.caps``, ``welcome.caps``).
SPOKEN = CAPABILITIES + (CAP_SHUFFLE_PROOFS, CAP_PROOF_APART, CAP_READY_CAPS,
                         CAP_LATE_REVEAL)
