"""What fills the screen, or a frame over it: the lobby, the table, the spectator's
screen, ``replay --view``, the help and the dialogs.  Each draws from a
:class:`~..model.view.TableView` with the parts of :mod:`..parts`."""
