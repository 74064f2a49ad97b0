"""Players, pure and public: the simple bots, the expert's search, the levels, offline
matches (simulate) and strength measurement (arena).
"""
