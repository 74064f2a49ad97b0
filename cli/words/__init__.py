"""The words people read, in one folder: the one catalog (:mod:`.i18n`, English and
French) and the modules that choose its sentences: every event and result
(:mod:`.event_words`), how a game ended after the screen closed (:mod:`.ending`), Tor as it
starts (:mod:`.tor_words`), the coach's grades (:mod:`.coach`) and luck against play
(:mod:`.luck`).  The screen, the headless peers and the outputs say what these give."""
