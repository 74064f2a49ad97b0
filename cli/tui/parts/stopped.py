"""Why a game stopped, in the players' words: the events panel, the game-stopped dialog
and the line printed once the screen closes all say it the same way.

No protocol code and no seat number: names (or "you"), a reason in the player's
language, and an accusation the log does not prove worded as the signer's claim.  The
abort's own ``detail`` is the signer's text (English, with seat numbers): the replay
shows it, the screen does not.  The words are the catalog's (``cli/words/i18n.py``: ``sr_`` a
code's meaning, ``st_`` the sentences); this says which one, for whom.
"""

from __future__ import annotations

from chkobba_p2p import Aborted, ErrorCode, Standing

from ...words.i18n import abort_reason
from ..model.view import TableView

__all__ = ["stop_sentences"]


def _w(view: TableView, key: str, **kw: object) -> str:
    """The catalog's sentence ``"st_" + key`` (``cli/words/i18n.py``) in the reader's language."""
    return view.t(f"st_{key}", **kw)


def stop_sentences(view: TableView, a: Aborted) -> list[tuple[str, str]]:
    """Why the game stopped: one or two (style, sentence) pairs, from the local seat's
    point of view.  A resignation and a player who left on purpose are a line of their
    own (the caller's words for them); anything else is said here."""
    me = view.state.seat
    by, blamed = a.by_seat, a.blamed_seat
    why = abort_reason(view.t, a.code, a.unknown_code)
    if a.resigned:
        return [("class:warn", view.said("ev_resigned", by))]
    if a.flag is not None:  # the host's flag on the seat to play: lost on time
        if view.solo:  # no host to speak of: what the clock is
            return [("class:warn", view.said("ev_on_time_solo", a.flag,
                                             why=view.late_note(a.flag, by)))]
        return [("class:warn", view.said("ev_on_time", a.flag, clock=view.clock_of(by)))]
    if a.disputed_by is not None:
        if a.disputed_by == me:
            return [("class:warn", _w(view, "disputed_me", by=view.who(by)))]
        if by == me:
            return [("class:warn", _w(view, "disputed_by_me",
                                      name=view.name(a.disputed_by)))]
        return [("class:warn", _w(view, "disputed", by=view.who(by),
                                  name=view.name(a.disputed_by)))]
    if blamed is not None and blamed == by and a.code is ErrorCode.PEER_LEFT:
        return [("class:warn", view.said("ev_left", by))]
    if blamed is None:
        key = "nobody_me" if by == me else "nobody"
        return [("class:error", _w(view, key, by=view.who(by), why=why))]
    liveness = {ErrorCode.PEER_LEFT: "away", ErrorCode.TIMEOUT: "slow"}.get(a.code)
    if a.standing in (Standing.PROVEN, Standing.SELF):
        if liveness is not None:  # its own signature: it left, or let the time run out
            if blamed == me:  # "vous avez mis", never "vous a mis"
                return [("class:error", _w(view, liveness + "_me"))]
            return [("class:error", _w(view, liveness, name=view.name(blamed)))]
        key = "broke_me" if blamed == me else "broke"
        if a.loser is not None and a.loser == a.convicted:
            key = key.replace("broke", "broke_loses")  # a cheat loses the match
        return [("class:error", _w(view, key, name=view.who(blamed), why=why))]
    if liveness is not None and by == me:
        # Our own peer's clock: what happened here, not somebody's word.
        first = _w(view, liveness, name=view.name(blamed))
        return [("class:error", first)]
    if liveness is not None:
        key = f"says_{liveness}" + ("_me" if blamed == me else "")
        claim = _w(view, key, by=view.who(by), name=view.who(blamed))
    elif by == me:
        claim = _w(view, "you_say", name=view.who(blamed), why=why)
    else:
        key = "says_me" if blamed == me else "says"
        claim = _w(view, key, by=view.who(by), name=view.who(blamed), why=why)
    if a.standing == Standing.OWED:
        shown = view.said("ev_owed", blamed)
    elif a.standing == Standing.REFUTED:
        shown = _w(view, "refuted")
    else:
        shown = view.t("ev_unshown")
    return [("class:error", f"{claim} {shown}")]
