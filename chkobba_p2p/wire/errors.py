"""The wire's misuse: :class:`WireUsageError`, a coded local error (see
:data:`WIRE_PROBLEMS`) for bytes this peer would send that no peer may: its own caller's
mistake.  Bytes another peer sent wrong are a
:class:`~chkobba_p2p.wire.codec.ProtocolError`.
"""

from __future__ import annotations

from ..errors import CodedLocalError

__all__ = ["WireUsageError", "WIRE_PROBLEMS"]

#: Every :attr:`WireUsageError.code`, with the keys of its :attr:`~WireUsageError.data`
#: (``size``: bytes; ``max``: the limit in bytes; ``field``: a field's name;
#: ``kind``: an entry's kind, as the wire spells it).  A code is never renamed; a client
#: words each (the terminal client: ``wu_`` + the code).
WIRE_PROBLEMS: dict[str, tuple[str, ...]] = {
    "frame_too_large": ("size", "max"),  # a message larger than any frame may carry
    "reserved_field": ("field",),  # a body field the signed entry's envelope holds
    "entry_too_large": ("kind", "size", "max"),  # larger than its kind's limit
}


class WireUsageError(CodedLocalError):
    """Bytes this peer would send that no peer may (see :data:`WIRE_PROBLEMS`)."""

    CODES = WIRE_PROBLEMS
    code = "wire_misuse"
