"""The link's misuse: :class:`LinkUsageError`, a coded local error (see
:data:`LINK_PROBLEMS`) for the link's cores used wrongly by their own caller (a name
this peer's own checks would refuse from another, a table of a shape it does not seat).
What another peer sends wrong is a :class:`~chkobba_p2p.wire.codec.ProtocolError`.
"""

from __future__ import annotations

from ..errors import CodedLocalError

__all__ = ["LinkUsageError", "LINK_PROBLEMS"]

#: Every :attr:`LinkUsageError.code`, with the keys of its :attr:`~LinkUsageError.data`
#: (``name``: the display name given; ``value``: the invisible character in it, as
#: ``U+200B``; ``max``: the most characters a name holds; ``players``: the table's
#: shape asked for, its ``repr`` when it is no number; ``choices``: the shapes a table
#: seats, comma-separated; ``controllers``: how many were given).  A code is never
#: renamed; a client words each (the terminal client: ``lk_`` + the code).
LINK_PROBLEMS: dict[str, tuple[str, ...]] = {
    "name_invisible": ("name", "value"),  # this peer's own name, as a peer would refuse it
    "name_unusable": ("name", "max"),  # empty, too long, or not printable
    "players_unsupported": ("players", "choices"),
    "table_not_full": (),  # the genesis asked of a lobby with a seat still empty
    "greeting_first": (),  # a hello read before this peer sent its greeting
    # The test kit's in-memory table (chkobba_p2p.testing).
    "controllers_for_table": ("controllers", "players"),
}


class LinkUsageError(CodedLocalError):
    """The link's cores used wrongly by their caller (see :data:`LINK_PROBLEMS`)."""

    CODES = LINK_PROBLEMS
    code = "link_misuse"
