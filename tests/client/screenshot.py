"""The whole screen as the terminal would show it, drawn by prompt_toolkit's own layout
(header, table or lobby, events, footer and any dialog over them) at a given size,
without a terminal: the text of each row, for tests that read the screen."""

from __future__ import annotations

from prompt_toolkit.application.current import set_app
from prompt_toolkit.data_structures import Size
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition


def screen_rows(ui, rows: int = 24, cols: int = 80) -> list[str]:
    """``ui`` (a :class:`~chkobba_cli.tui.app.TuiApp`) drawn at ``rows`` x ``cols``:
    one string per row, trailing blanks removed."""
    ui.size = (rows, cols)
    app = ui.app
    app.output.get_size = lambda: Size(rows=rows, columns=cols)  # type: ignore[method-assign]
    app.render_counter += 1  # a new frame: the controls' caches are for the last one
    screen = Screen(default_char=None)
    with set_app(app):
        container = app.layout.container
        container.write_to_screen(screen, MouseHandlers(), WritePosition(0, 0, cols, rows),
                                  parent_style="", erase_bg=False, z_index=None)
        screen.draw_all_floats()
    out = []
    for y in range(rows):
        line = screen.data_buffer[y]
        out.append("".join(line[x].char for x in range(cols)).rstrip())
    return out


def screen_text(ui, rows: int = 24, cols: int = 80) -> str:
    return "\n".join(screen_rows(ui, rows, cols))


def click(ui, x: int, y: int, rows: int = 24, cols: int = 80) -> object:
    """A click (press and release of the left button) at column ``x``, row ``y`` of the
    screen drawn at ``rows`` x ``cols``, through the handlers prompt_toolkit's layout put
    there (as its renderer hands a terminal's mouse event on): the handler's answer to the
    release (NotImplemented where nothing takes a click)."""
    from prompt_toolkit.data_structures import Point
    from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType

    ui.size = (rows, cols)
    app = ui.app
    app.output.get_size = lambda: Size(rows=rows, columns=cols)  # type: ignore[method-assign]
    app.render_counter += 1
    handlers = MouseHandlers()
    with set_app(app):
        app.layout.update_parents_relations()  # as the application's redraw does
        app.layout.container.write_to_screen(Screen(default_char=None), handlers,
                                             WritePosition(0, 0, cols, rows),
                                             parent_style="", erase_bg=False, z_index=None)
        handler = handlers.mouse_handlers[y][x]
        result = None
        for kind in (MouseEventType.MOUSE_DOWN, MouseEventType.MOUSE_UP):
            result = handler(MouseEvent(Point(x, y), kind, MouseButton.LEFT, frozenset()))
    return result


def find(rows: list[str], text: str, below: int = 0) -> tuple[int, int]:
    """Where ``text`` first shows (column, row), from row ``below`` on."""
    for y in range(below, len(rows)):
        x = rows[y].find(text)
        if x >= 0:
            return x, y
    raise AssertionError(f"{text!r} not on screen:\n" + "\n".join(rows))


#: The host's key, as a lobby shows it, and a seat secret (a join code's "+" part).
FP = "480e-55d0-c49c-0062"
SECRET = "b2p3-zh3f-us2p-vn43"


def end_box(rows: list[str]) -> list[str]:
    """The inside of the end box (its top a wide frame, not a card's), a line a row,
    stripped."""
    top = next(i for i, r in enumerate(rows) if "┌" + "─" * 20 in r)
    left, right = rows[top].index("┌" + "─" * 20), rows[top].rindex("┐")
    inside = []
    for r in rows[top + 1:]:
        if r[left:left + 1] == "└":
            return inside
        inside.append(r[left + 1:right].strip())
    raise AssertionError("the box has no bottom:\n" + "\n".join(rows))

def host_lobby(lang: str, address: str, port: int, name: str = "amel",
               onion: str | None = None):
    """A host's screen (a :class:`~chkobba_cli.tui.app.TuiApp`) for ``lang`` at
    ``address:port`` (``onion``: published through Tor too), showing its lobby: ``name``
    (the host, key :data:`FP`) seated and one seat free.  Build it inside an
    ``app_session``."""
    from chkobba_cli.tui.app import TuiApp
    from chkobba_p2p import Lobby
    from chkobba_p2p.game import rules as R

    host = TuiApp(kind="host", lang=lang, seat=0, rules=R.Ruleset(), players=2,
                  address=address, my_fingerprint=FP)
    host.port = port
    if onion is not None:
        host.onion = onion
    host._show_event(Lobby(((name, FP), None)))
    return host
