"""Bytes and values, pure: the wire codec (frames, msgpack, identities, signed entries),
and the log file (.chklog) and saved games.
"""
