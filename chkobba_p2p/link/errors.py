"""The link's misuse: :class:`LinkUsageError`, a coded local error (see
:data:`LINK_PROBLEMS`) for the link's cores used wrongly by their own caller (a name
this peer's own checks would refuse from another, a table of a shape it does not seat).
What another peer sends wrong is a :class:`~chkobba_p2p.wire.codec.ProtocolError`.
"""

from __future__ import annotations

from ..errors import CodedLocalError

__all__ = ["LinkUsageError", "LinkArgumentError", "LINK_PROBLEMS"]

#: Every :attr:`LinkUsageError.code`, with the keys of its :attr:`~LinkUsageError.data`
#: (``name``: the display name given; ``value``: the invisible character in it, as
#: ``U+200B``; ``max``: the most characters a name holds; ``players``: the table's
#: shape asked for, its ``repr`` when it is no number; ``choices``: the shapes a table
#: seats, comma-separated; ``controllers``: how many were given; ``role``: ``host``,
#: ``joiner`` or ``spectator``; ``state``: a connection's state, as
#: :mod:`~chkobba_p2p.link.states` names it; ``event``, ``type``: our own event or
#: message type, its ``repr`` when it is no text; ``strangers``, ``seconds``,
#: ``spectators``: an admission policy's numbers as given, ``seconds`` also the
#: spectator list's announcement window, each its ``repr`` when it is no number).  A code is never
#: renamed; a client words each (the terminal client: ``lk_`` + the code).
LINK_PROBLEMS: dict[str, tuple[str, ...]] = {
    "name_invisible": ("name", "value"),  # this peer's own name, as a peer would refuse it
    "name_unusable": ("name", "max"),  # empty, too long, or not printable
    "players_unsupported": ("players", "choices"),
    "table_not_full": (),  # the genesis asked of a lobby with a seat still empty
    "greeting_first": (),  # a hello read before this peer sent its greeting
    # A connection's states (states.py, door.py, joiner.py): our own code's step out of
    # its table (a bug here; :class:`~chkobba_p2p.link.states.NoSuchEvent`, and
    # :class:`~chkobba_p2p.link.states.LocalStateError` for a message we may not send).
    "no_such_state": ("role", "state"),
    "no_such_event": ("role", "state", "event"),
    "no_handshake": ("state",),  # a handshake's step with none under way
    "spectator_not_watching": ("state",),
    "nothing_to_admit": ("state",),
    "may_not_send": ("role", "state", "type"),
    # The door's admission policy (admission.py) and the spectator list's window
    # (spectators.py): a LinkArgumentError, a ValueError too.
    "strangers_below_one": ("strangers",),
    "greeting_not_positive": ("seconds",),
    "spectators_negative": ("spectators",),
    "already_admitted": (),  # a connection admitted a second time
    "window_negative": ("seconds",),
    # The test kit's in-memory table (chkobba_p2p.testing).
    "controllers_for_table": ("controllers", "players"),
}


class LinkUsageError(CodedLocalError):
    """The link's cores used wrongly by their caller (see :data:`LINK_PROBLEMS`)."""

    CODES = LINK_PROBLEMS
    code = "link_misuse"


class LinkArgumentError(LinkUsageError, ValueError):
    """An argument of the link's cores out of its range (an admission policy's numbers,
    the spectator list's window): a :class:`LinkUsageError` by its code, and a
    ``ValueError`` as it always was."""
