"""The I/O shell: the only folder of the library that imports trio, sockets or zeroconf.
Private: reach it through the faces, ``chkobba_p2p`` (playing at a table) and
``chkobba_p2p.lowlevel`` (the protocol's machines).
"""

import importlib
import sys
import types

# First of all (issue 44, a peer's peak memory): the deal's group library, rbcl, loads
# libsodium from a 5.6 MB hex string held in its bytecode, some 12 MB for a moment of its
# import.  Every peer needs it; imported before the rest of the shell (and before the
# deal is first used, mid-connection), the memory of that moment is reused by the modules
# that follow instead of adding to the peak.
from ..deal import group as _group  # noqa: E402,F401


def _remove_libsodium_copy() -> None:
    """rbcl writes its libsodium to a new file in the temporary folder at every import and
    never removes it (2.8 MB a process).  Once loaded the file is not needed (POSIX keeps
    the mapping; where a loaded library cannot be removed, it stays)."""
    import contextlib
    import os
    import sys
    import tempfile

    path = getattr(sys.modules.get("rbcl._sodium"), "lib_path", None)
    if not isinstance(path, str):
        return
    folder = os.path.realpath(tempfile.gettempdir())
    if os.path.dirname(os.path.realpath(path)) == folder and path.endswith((".so", ".pyd")):
        with contextlib.suppress(OSError):
            os.unlink(path)


_remove_libsodium_copy()


class _OnFirstUse(types.ModuleType):
    """Stands for a module in trio's modules (:mod:`ssl`, :mod:`hmac`): the real module
    is imported the first time one of its names is read (trio reads them only when a TLS
    stream or a DTLS endpoint is used)."""

    def __getattr__(self, name: str) -> object:
        # Read while it still stands in sys.modules (a module trio imports reads one of
        # its names at import time): step aside first, or the import would return this
        # very stand-in and the read would recurse for ever.
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        real = importlib.import_module(self.__name__)
        self.__dict__.update(vars(real))  # later reads find the names at once
        return getattr(real, name)


#: What trio imports and no peer uses: ``ssl`` and the system's OpenSSL TLS library for
#: its TLS streams, ``hmac`` (with ``hashlib`` and the system's libcrypto, 3.4 MB) for its
#: DTLS cookies.  The link signs and checks its frames itself, and hashes with
#: ``cryptography`` (:mod:`chkobba_p2p._digest`).
_LATER = ("ssl", "hmac")


def _import_trio_without_ssl() -> None:
    """Import trio without :mod:`ssl` and :mod:`hmac` and the system's OpenSSL they load
    (issue 44, a peer's memory: about 4.5 MB).  trio imports them for its TLS streams and
    its DTLS cookies, which no peer uses, and reads their names only inside the functions
    and methods of those.  While trio is first imported, each of them in
    :data:`sys.modules` is a module that imports the real one on the first name read from
    it, then it is removed, so that the next ``import ssl`` or ``import hmac`` anywhere
    gets the real one.  When trio is already imported, nothing is changed, and a module
    already imported is not stood in for."""
    if "trio" in sys.modules:
        return
    standins = {name: _OnFirstUse(name, f"imports the real {name} on first use (trio's)")
                for name in _LATER if name not in sys.modules}
    sys.modules.update(standins)
    try:
        import trio  # noqa: F401
    finally:
        for name, standin in standins.items():
            if sys.modules.get(name) is standin:
                del sys.modules[name]


_import_trio_without_ssl()
