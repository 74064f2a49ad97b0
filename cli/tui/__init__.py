"""The full-screen terminal client: prompt_toolkit on asyncio, the peer on trio in guest
mode.  One module per screen or concern; a new screen is a new module, not more lines in
another:

- :mod:`.app`: :class:`~.app.TuiApp`, the application: the state of the screen and the
  actions the keys call; :mod:`.screen` (mixed in) lays it out and says which screen
  (:meth:`~.screen.Screen.body`) and which dialog (:meth:`~.screen.Screen.overlay_kind`)
  shows; :mod:`.leaving` (mixed in): stepping away, resigning, playing again.
- :mod:`.guest`: running it (:func:`~.guest.run_app`): the application on asyncio, the
  peer on trio in guest mode, the seat controller between them, signals.
- :mod:`.view`: :class:`~.view.TableView`, a table state with the words and the card
  style to draw it: what every screen draws from, with no network and no application.
- :mod:`.table`: the table during a hand (:func:`~.table.draw_table`); a replay viewer
  drives it from a :class:`~.view.TableView` of each state of a log.
- :mod:`.decision`: a decision asked of the local seat (play, cut) and the lines it puts
  under the hand (prompt, capture options, refusals, hints).
- :mod:`.lobby`: the lobby before the first hand.
- :mod:`.dialogs`: the framed dialogs: leave?, a hand's scoring, the match's end.
- :mod:`.narration`: the events panel, one line per event.
- :mod:`.chat`: the one-line chat input; :mod:`.quickchat`: phrases on single keys and
  the bell when the turn comes back; :mod:`.memo`: chat and hints kept across a resume.
- :mod:`.seats`: the seats of a table of 4 as they sit around us (drawn by :mod:`.table`).
- :mod:`.keys`: every key binding, grouped by the screen or dialog they act on, and
  the mouse's clicks (:func:`~.keys.click`), which take the keys' path.
- :mod:`.render`, :mod:`.style`: cards, rows of cards and score tables as styled text,
  a card tagged for the mouse by a style class (:func:`~.render.click_tag`, made a
  handler by :func:`~.screen.clickable`); the colours by class name (red and black, or
  the four-colour deck's).
- :mod:`.botproc`: a bot peer in its own process, for ``chkobba play``.

Where the next screens go:

- a lobby ready check: its lines in :mod:`.lobby`, its key in :mod:`.keys`;
- a help screen: a dialog (a module of its own beside :mod:`.dialogs`, a kind in
  ``Screen.overlay_kind``, its keys in :mod:`.keys`);
- a replay viewer: a module building a :class:`~.view.TableView` per step of a log and
  drawing it with :func:`~.table.draw_table` and :mod:`.narration` (no network, no trio);
- clocks: drawn by :mod:`.table` next to each seat, from what the view's state holds;
  a redraw every second, if needed, belongs to :mod:`.guest` (trio's clock).
"""
