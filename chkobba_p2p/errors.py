"""Exception types shared by the whole library.

Two families, as in h11: :class:`LocalError` is *your* misuse (calling an API in the wrong
state, a move your own seat may not make); :class:`RemoteError` is another peer's
misbehaviour, with a wire ``code`` and the seat to blame.  Rules violations are
:class:`IllegalMove` subclasses; the session layer turns a peer's illegal move into a
remote error blaming that peer.  A :class:`CodedLocalError` (a log that is not one, a
typed address, a port a host cannot listen on, rules, bots) carries a ``code`` from its
class's table and that code's ``data``, for a client to word in its reader's language;
where the OS refused, the data carries its words (``why``) and its errno's name
(``errno``, :func:`errno_name`), for a client to word the common ones.
"""

from __future__ import annotations

__all__ = [
    "ChkobbaError",
    "LocalError",
    "CodedLocalError",
    "errno_name",
    "RemoteError",
    "IllegalMove",
    "WrongPhase",
    "NotYourTurn",
    "CardNotInHand",
    "CaptureNotOnTable",
    "GroupDoesNotSum",
    "RankMatchRequired",
    "CaptureRequired",
    "ForcedCaptureRequired",
    "InvalidDeal",
    "VIOLATIONS",
    "Facts",
]

import errno as _errno
from collections.abc import Mapping

#: The data a violation carries (:attr:`RemoteError.facts`): ``(key, value)`` pairs.
Facts = tuple[tuple[str, str | int], ...]

#: Every violation a check of this library finds in another peer's bytes, messages or
#: entries: its stable code (:attr:`RemoteError.violation`, then
#: :attr:`~chkobba_p2p.observe.verdict.Verdict.violation`) and the keys its
#: :attr:`RemoteError.facts` may hold (``card``/``shown``: a card id 0..39; ``seat``,
#: ``floor``: seat numbers; ``field``, ``kind``, ``expected``, ``got``, ``action``,
#: ``value``: short texts as the wire spells them; the rest numbers).  The exception's
#: ``str()`` stays an English sentence for logs and developers; a client words the code
#: and its facts for people, in their language (the terminal client: ``vi_`` + the code
#: in ``chkobba_cli.words.i18n``).  A code is never renamed: logs of audits keep it.
VIOLATIONS: dict[str, tuple[str, ...]] = {
    # -- the wire (frames, msgpack, fields: chkobba_p2p.wire.codec)
    "frame_too_large": ("size", "max"),
    "extension_type": (),
    "key_not_str": (),
    "duplicate_key": ("field",),
    "string_too_long": ("max",),
    "float_value": (),
    "nested_too_deep": ("max",),
    "too_many_values": ("max",),
    "not_msgpack": (),
    "not_a_message": (),
    "field_missing": ("field",),
    "field_type": ("field", "kind"),
    "field_size": ("field", "size"),
    "field_too_long": ("field", "max"),
    "pop_not_last": (),
    "not_an_entry": (),
    "payload_not_map": (),
    "seat_out_of_range": (),
    "negative_sequence": (),
    "entry_too_large": ("kind", "size", "max"),
    "unknown_fields_too_large": ("size", "max"),
    # -- the table and the transcript's envelope (chkobba_p2p.transcript)
    "bad_name": ("max",),
    "not_genesis": (),
    "version_unsupported": ("version",),
    "players_unsupported": ("players",),
    "bad_ruleset": (),
    "rules_hash_mismatch": (),
    "seat_count": (),
    "seat_order": (),
    "key_holds_two_seats": (),
    "host_not_seat_0": (),
    "genesis_signature": (),
    "no_seat_for_us": (),
    "wrong_game": (),
    "no_such_seat": (),
    "bad_signature": ("seat",),
    "game_over": (),
    "replayed_entry": (),
    "chain_broken": (),
    "out_of_turn": ("seat", "floor"),
    "wrong_sequence": ("expected",),
    "transcript_too_long": ("max",),
    "unexpected_kind": ("expected", "got"),
    "result_differs": ("seat",),
    "entry_after_end": (),
    "stalled_owing": ("seat", "turns"),
    "stalled": (),
    # -- the bodies of entries (chkobba_p2p.transcript.bodies)
    "not_a_card": ("value",),
    "not_a_position": ("value",),
    "bad_ready_caps": (),
    "take_not_list": (),
    "take_twice": (),
    "keep_not_bool": (),
    "kept_with_position": (),
    "unknown_action": ("value",),
    "bad_turn_fields": (),
    "bad_done_result": (),
    # -- the game driver (chkobba_p2p.transcript.driver)
    "position_not_shown": ("seat", "pos"),
    "empty_turn": ("seat",),
    "turn_item_not_map": (),
    "turn_item_after_end": (),
    "no_action_due": (),
    "card_not_shown": ("seat", "card", "shown"),
    "only_drawn_card": (),
    "action_out_of_phase": ("action",),
    "invalid_deal": (),
    # -- the rules (chkobba_p2p.game: each IllegalMove's ``rule``)
    "illegal_move": (),
    "wrong_phase": (),
    "not_your_turn": (),
    "card_not_in_hand": (),
    "capture_not_on_table": (),
    "group_does_not_sum": (),
    "rank_match_required": (),
    "capture_required": (),
    "forced_capture": (),
    # -- the link: handshake, lobby, spectators (chkobba_p2p.link)
    "version_not_offered": ("version",),
    "no_common_version": (),
    "unknown_message": ("value",),
    "unexpected_message": ("expected",),
    "out_of_state": ("got", "state"),
    "already_seated": (),
    "seat_refused": (),
    "table_full": (),
    "game_started": (),
    "bad_proof_of_possession": (),
    "key_not_knocked": (),
    "shuffle_proofs_required": (),
    "needs_deal_v1": (),
    "foreign_bot_voucher": (),
    "bot_key_cannot_return": (),
    "empty_bot_level": (),
    "unknown_game": (),
    "no_seat_here": (),
    "secret_required": (),
    "secret_wrong": (),
    "welcome_unsigned": (),
    "wrong_resume_seat": (),
    "game_not_started": (),
    "entry_for_other_seat": (),
    "spectators_full": (),
    "spectators_limit": ("max",),
    "no_spectators": (),
    "field_range": ("field", "min", "max"),
    "invisible_character": ("value",),
    "no_seat_list": (),
    "seat_list_size": ("size", "max"),
    "seat_not_map": ("seat",),
    "seat_key_size": ("seat",),
    "seat_name_length": ("seat", "max"),
    "seat_name_unprintable": ("seat",),
    "seat_name_invisible": ("seat", "value"),
    "bad_chat_line": (),
    "accept_not_bool": (),
    "bad_spectator_list": ("max",),
    # -- the deal (chkobba_p2p.deal: "deal_" + PeerMisbehaved's code, docs/deal.md)
    "deal_malformed": (),
    "deal_bad_point": (),
    "deal_flood": (),
    "deal_unknown_message": (),
    "deal_unexpected": (),
    "deal_bad_key": (),
    "deal_bad_key_proof": (),
    "deal_duplicate_ciphertext": (),
    "deal_missing_shuffle_proof": (),
    "deal_bad_shuffle_proof": (),
    "deal_malformed_shuffle_proof": (),
    "deal_shuffle_not_rerandomized": (),
    "deal_not_cutter": (),
    "deal_wrong_positions": (),
    "deal_bad_share_proof": (),
    "deal_not_dealt_to_you": (),
    "deal_already_played": (),
    "deal_false_complaint": (),
    "deal_bad_opening": (),
    "deal_shuffle_mismatch": (),
    "deal_unexplained_audit": (),
}


class ChkobbaError(Exception):
    """Base class of every error this library raises on purpose."""


class LocalError(ChkobbaError):
    """The caller misused the API (local misbehaviour)."""


class CodedLocalError(LocalError):
    """A local error with a machine-readable reason, for a client to word: ``code`` (one
    of the subclass's :attr:`CODES`, a short stable snake_case name) and ``data`` (what a
    sentence about it needs: paths, numbers, the text typed).  ``str()`` stays an English
    sentence for logs and developers.  ``code`` is the subclass's default (in no table:
    a client words it by ``str()``) when a caller outside this library gives none."""

    #: Every code this class is raised with, and the keys of :attr:`data` it carries.
    CODES: dict[str, tuple[str, ...]] = {}
    code = "local_error"

    def __init__(self, message: str, *, code: str | None = None,
                 data: Mapping[str, str | int] | None = None) -> None:
        super().__init__(message)
        # A code outside the table, or a key it does not list, is this library's bug:
        # a client would have no words for it.
        assert code is None or code in self.CODES, code
        assert code is not None or not data
        assert code is None or set(data or {}) == set(self.CODES[code]), (code, data)
        if code is not None:
            self.code = code
        self.data: dict[str, str | int] = dict(data or {})


def errno_name(exc: OSError) -> str:
    """The name of the OS's error number in ``exc`` (``ENOENT``, ``EACCES``, ``EISDIR``,
    ``EADDRINUSE``...), the same on every system, for a client to word; ``""`` when it
    has none (or none this Python names)."""
    number = exc.errno
    return _errno.errorcode.get(number, "") if isinstance(number, int) else ""


class RemoteError(ChkobbaError):
    """Another peer misbehaved.

    ``code`` is the short wire code, ``blamed_seat`` the seat at fault (None if unknown),
    ``evidence`` the offending message when there is one.  ``violation`` is the check's
    own code (one of :data:`VIOLATIONS`; None where no check of ours names it, such as a
    code another peer sent) and ``facts`` its data; ``str()`` says it in English.
    """

    code = "remote_error"

    def __init__(self, message: str, *, code: str | None = None,
                 blamed_seat: int | None = None, evidence: object = None,
                 violation: str | None = None,
                 facts: Mapping[str, str | int] | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.blamed_seat = blamed_seat
        self.evidence = evidence
        # A code outside the table, or a fact it does not list, is this library's bug:
        # a client would have no words for it.
        assert violation is None or violation in VIOLATIONS, violation
        assert violation is not None or not facts
        assert not facts or violation is None or set(facts) <= set(VIOLATIONS[violation]), \
            (violation, facts)
        self.violation = violation
        self.facts: Facts = tuple((facts or {}).items())


class IllegalMove(ChkobbaError, ValueError):
    """A move the rules forbid.  ``rule`` is a short stable name for the rule broken (a
    code of :data:`VIOLATIONS` when another seat's move breaks it)."""

    rule = "illegal_move"


class WrongPhase(IllegalMove):
    """The hand is not waiting for this kind of action (a play while cards are dealt...)."""

    rule = "wrong_phase"


class NotYourTurn(IllegalMove):
    rule = "not_your_turn"


class CardNotInHand(IllegalMove):
    rule = "card_not_in_hand"


class CaptureNotOnTable(IllegalMove):
    rule = "capture_not_on_table"


class GroupDoesNotSum(IllegalMove):
    rule = "group_does_not_sum"


class RankMatchRequired(IllegalMove):
    """A sum was taken while a table card of the same value could be taken."""

    rule = "rank_match_required"


class CaptureRequired(IllegalMove):
    """The card played can capture, so it must."""

    rule = "capture_required"


class ForcedCaptureRequired(IllegalMove):
    """Forced-capture variant: a capturing card had to be played."""

    rule = "forced_capture"


class InvalidDeal(ChkobbaError, ValueError):
    """Cards given to the engine as dealt do not fit the state (duplicate, wrong count...)."""
