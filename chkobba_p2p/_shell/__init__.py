"""The I/O shell: the only folder of the library that imports trio, sockets or zeroconf.
Private: reach it through the faces, ``chkobba_p2p`` (playing at a table) and
``chkobba_p2p.lowlevel`` (the protocol's machines).
"""
