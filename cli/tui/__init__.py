"""The full-screen terminal client: prompt_toolkit on asyncio, the peer on trio in guest
mode.  One module per screen or concern, in a folder per kind; a new screen is a new
module, not more lines in another.

Here, the application and its one runner:

- :mod:`.app`: :class:`~.app.TuiApp`, the application: the state of the screen and the
  actions the keys call; :mod:`.screen` (mixed in) lays it out and says which screen
  (:meth:`~.screen.Screen.body`) and which dialog (:meth:`~.screen.Screen.overlay_kind`)
  shows; :mod:`.leaving` (mixed in): stepping away, resigning, playing again.
- :mod:`.keys`: every key binding, grouped by the screen or dialog they act on, and
  the mouse's clicks (:func:`~.keys.click`), which take the keys' path.
- :mod:`.guest`: running it (:func:`~.guest.run_app`): the application on asyncio, the
  peer on trio in guest mode, the seat controller between them, signals.

:mod:`.screens`, what fills the screen or a frame over it: the lobby before the first
hand (:mod:`.screens.lobby`), the table during a hand (:mod:`.screens.table`,
:func:`~.screens.table.draw_table`), the spectator's screen (:mod:`.screens.watching`),
``replay --view`` (:mod:`.screens.replay`), the help (:mod:`.screens.helpscreen`) and the
framed dialogs: leave?, a hand's scoring, the match's end (:mod:`.screens.dialogs`).

:mod:`.parts`, what the screens are composed of: the events panel
(:mod:`.parts.narration`), the lines under the hand for a decision asked of the local seat
(:mod:`.parts.decision`), the seats of a table of 4 as they sit around us
(:mod:`.parts.seats`), large cards (:mod:`.parts.bigcards`), the chat input
(:mod:`.parts.chat`) and quick chat with the turn's bell (:mod:`.parts.quickchat`), the
lobby's terms and seats as a person checks them (:mod:`.parts.terms`,
:mod:`.parts.trust`), why a game stopped (:mod:`.parts.stopped`), and the drawing
basics: cards, rows of cards and score tables as styled text (:mod:`.parts.render`, a
card tagged for the mouse by a style class: :func:`~.parts.render.click_tag`, made a
handler by :func:`~.screen.clickable`) and the colours by class name (:mod:`.parts.style`).

:mod:`.model`, what the screens draw from and keep, with no drawing of their own:
:class:`~.model.view.TableView` (a table state with the words and the card style, no
network and no application), the clocks (:mod:`.model.presence`), the display's pace
(:mod:`.model.pace`), the matches already played (:mod:`.model.past`), luck against
play computed off the screen's thread (:mod:`.model.luckview`), chat and hints kept
across a resume (:mod:`.model.memo`).

The bot peers ``chkobba play`` starts are processes of their own
(:mod:`chkobba_cli.support.botproc`), not part of the screen.

Where the next things go: a new screen or dialog, a module in :mod:`.screens` (a kind in
``Screen.overlay_kind``, its keys in :mod:`.keys`); a part several screens show, in
:mod:`.parts`; what a screen reads from the table or keeps across runs, in :mod:`.model`;
a redraw every second, if needed, belongs to :mod:`.guest` (trio's clock).
"""
