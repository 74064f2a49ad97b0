"""The full-screen terminal client (prompt_toolkit on asyncio, the peer on trio in guest
mode): :mod:`.app` is the screen and its keys, :mod:`.render` draws cards and tables,
:mod:`.botproc` runs a bot peer in its own process for ``chkobba play``."""
