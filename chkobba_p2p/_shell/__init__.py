"""The I/O shell: the only folder of the library that imports trio, sockets or zeroconf.
Private: reach it through the faces, ``chkobba_p2p`` (playing at a table) and
``chkobba_p2p.lowlevel`` (the protocol's machines).
"""

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
