"""The signed game, pure: one peer's view of the transcript (Session), the clocks,
the matches a host ended.
"""
