"""A person plays one side in the browser against agents: `rubble play ENV --web`.

A local page (web_page.html) on a Starlette app served by uvicorn, bound to 127.0.0.1 only. The game itself stays in
this process: the page receives only what the person's side may know, as JSON (`GET state`), and posts the index of
one of its legal choices with the decision number it was shown at (`POST choose`). The other sides play at once, as in
the terminal game: the same rules, the same seeded dice and agents (`agent_seed`), the same replay at the end.

What the page gets (`board_view`) is read from the state through the side's own filters only: the ruleset's picture
`render_rgb(side)`, the side's unit cards (training/replay/unit_cards.py), its legal choices with their labels (grouped
as training/play/menu.py groups them), the victory condition and score as the play screen words them. The log holds
each decision's label where the rules make it public (a secret kind, such as a face-down order, reads
"decides (order)") and the events the rules announce, as the terminal prints them.

A choice that is stale (the page showed an older decision) or illegal changes nothing and is answered 409 or 422 with
a one-line reason; anything that is not the JSON `{"version": N, "action": N}` gets 400.
"""
from __future__ import annotations

import base64
import io
import socket
import sys
import threading
import webbrowser
from pathlib import Path
from typing import TextIO

from PIL import Image
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse
from starlette.routing import Route

from agents.base import decide
from envs.engine.contract import IllegalActionError
from envs.engine.dice import agent_seed
from envs.engine.events import events_seen_by
from training.replay import unit_cards
from training.replay.viewer import legend

from .menu import Choice, group_title, grouped, legal_actions, needs_confirmation, needs_grouping, short_lines, with_notes
from .rulesets import pieces as ruleset_pieces

PAGE = Path(__file__).with_name("web_page.html")
HOST = "127.0.0.1"
#: the page shows this many of the latest log entries (decisions with their events)
LOG_ENTRIES = 200
#: a choice's body is a few dozen bytes
MAX_BODY = 4096


class Refused(Exception):
    """A request that changes nothing: its HTTP status and one line saying why."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


# What the page may show: the person's side's view only ------------------------------------------------------------
def picture(state, side: int) -> str:
    """The ruleset's picture of the board as `side` sees it, as a PNG data URI."""
    out = io.BytesIO()
    Image.fromarray(state.render_rgb(side)).save(out, format="PNG", compress_level=1)
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii")


def choice_groups(state, side: int, pieces) -> list[dict]:
    """The person's legal choices as the terminal's menu groups them: a long list by what each choice does (a group of
    one is a choice of its own), a group's words in common once in its title; each choice's cost and to-hit note, and
    whether it is final (asked twice)."""
    choices = [Choice(a, pieces.label(state, a) or state.action_label(a)) for a in legal_actions(state)]
    groups = list(grouped(choices).values()) if needs_grouping(choices) else [choices]
    out = []
    for group in groups:
        noted = with_notes(state, group, pieces)
        shared, texts = short_lines([Choice(c.action, c.label) for c in noted])
        out.append({"title": group_title(group) if len(groups) > 1 else "", "shared": shared, "items": [
            {"action": c.action, "label": c.label, "text": text, "note": c.note,
             "confirm": needs_confirmation(c.label, len(choices))} for c, text in zip(noted, texts)]})
    return out


def board_view(rs, state, side: int, pieces) -> dict:
    """Everything the page shows of the state, read through `side`'s filters only: the same for every game that differs
    only in what `side` may not know (tests/training/play/test_play_web.py checks it on `hidden_variants`)."""
    deciding = None if state.is_over else state.current_side
    status = [f"turn {state.turn} of {rs.turn_limit(state)}"]
    if deciding is not None:
        kind = state.decision_kind()
        status.append(("you" if deciding == side else rs.sides[deciding]) + " to decide" + (f" ({kind})" if kind else ""))
        ap = pieces.ap_left(state) if deciding == side else None
        if ap is not None:
            status.append(f"AP left {ap}")
    return {
        "status": "  ·  ".join(status),
        "victory": pieces.victory(state),
        "score": pieces.score(state, side),
        "picture": picture(state, side),
        "legend": legend(rs.name, state),
        "cards": [c.to_json() for c in unit_cards.cards(rs.name, state, side)],
        "choices": choice_groups(state, side, pieces) if deciding == side else [],
    }


def rolled(event) -> str:
    """An event's dice in words: each roll's faces with what it needed (or its table) and what followed."""
    rolls = event.data.get("rolls")
    if not rolls:
        return " ".join(map(str, event.dice))
    parts = []
    for r in rolls:
        how = f" on {r['table']}" if r["table"] else f", needing {r['needs']}" if r["needs"] else ""
        parts.append(f"{' '.join(map(str, r['dice']))}{how}: {r['result']}")
    return "; ".join(parts)


def event_json(event) -> dict:
    return {"text": event.text, "rolled": rolled(event) if event.dice or event.data.get("rolls") else "", "rule": event.rule}


def outcome(returns, side: int) -> str:
    result = returns[side]
    return "you win" if result > 0 else "you lose" if result < 0 else "a draw"


# One game -----------------------------------------------------------------------------------------------------------
class WebGame:
    """One game in the browser: the person on `side`, `enemy(side, seed)` on every other side. The agents play as soon
    as it is their turn, so the page only ever waits for the person. `recorder` (replay.recorder.Recorder) writes the
    replay at the end, or when the server stops first (as q does in the terminal)."""

    def __init__(self, rs, scenario, side: int, enemy, seed: int, recorder=None, agent_names=(), out: TextIO | None = None):
        self.rs, self.side, self.seed, self.recorder = rs, side, seed, recorder
        self.scenario = scenario or rs.default_scenario
        self.out = out or sys.stdout
        self.pieces = ruleset_pieces(rs.name)
        self.state = rs.new_game(scenario=scenario, seed=seed) if recorder is None else recorder.start(rs, scenario, seed)
        self.agents = {s: enemy(s, agent_seed(seed, s)) for s in range(len(rs.sides)) if s != side}
        names = list(agent_names) or ["agent"] * len(rs.sides)
        self.agent_names = ["you" if s == side else str(names[s]) for s in range(len(rs.sides))]
        self.lock = threading.Lock()
        self.decisions = 0
        self.log: list[dict] = []
        self.stopped = False
        self.replay: str | None = None
        self._view: tuple[int, dict] | None = None
        if self.state.setup_events:
            self.log.append({"who": "set-up", "mine": False, "label": "", "events": self.events_json(self.state.setup_events)})
        self.advance()

    # The game ---------------------------------------------------------------------------------------------------------
    def play(self, action: int) -> None:
        """One decision for the side to play; the log gets its label where the rules make it public."""
        state = self.state
        who, kind = state.current_side, state.decision_kind()
        if who == self.side:
            label = self.pieces.label(state, action) or state.action_label(action)
        else:
            label = f"decides ({kind})" if kind in self.pieces.secret_kinds else state.action_label(action)
        events = state.apply(action)
        self.decisions += 1
        self.log.append({"who": "you" if who == self.side else self.rs.sides[who], "mine": who == self.side,
                         "label": label, "events": self.events_json(events)})

    def events_json(self, events) -> list[dict]:
        """The events the person's side may read (events_seen_by), as the page shows them; the replay keeps them all."""
        return [event_json(e) for e in events_seen_by(events, self.side)]

    def advance(self) -> None:
        """The agents decide until it is the person's turn or the game is over."""
        while not self.state.is_over and self.state.current_side != self.side:
            side = self.state.current_side
            self.play(decide(self.agents[side], self.state, side))
        if self.state.is_over:
            self.stop()

    def stop(self) -> None:
        """The game ends here (over, or stopped by the person or the server): its replay is written, once."""
        if self.stopped:
            return
        self.stopped = True
        if self.recorder is not None:
            path = self.recorder.finish(self.state, self.seed)
            self.replay = None if path is None else str(path)
        result = (f"game over: {outcome(self.state.returns(), self.side)} (returns {tuple(self.state.returns())})"
                  if self.state.is_over else "stopped before the end")
        self.out.write(result + (f"\nreplay: {self.replay}" if self.replay else "") + "\n")
        self.out.flush()

    # What the page asks -----------------------------------------------------------------------------------------------
    def view(self) -> dict:
        """The page's JSON: the person's side's view and its choices, the public log, the decision number (`version`)
        that a choice must name, and the outcome once the game is over."""
        if self._view is None or self._view[0] != self.decisions or self.stopped:
            self._view = (self.decisions, board_view(self.rs, self.state, self.side, self.pieces))
        view = dict(self._view[1])
        if self.stopped:
            view["choices"] = []
        returns = tuple(self.state.returns())
        view.update({
            "title": f"{self.rs.name} · {self.scenario} · seed {self.seed}",
            "you": self.rs.sides[self.side], "sides": list(self.rs.sides), "agents": self.agent_names,
            "version": self.decisions, "log": self.log[-LOG_ENTRIES:],
            "over": None if not self.stopped else {
                "result": outcome(returns, self.side) if self.state.is_over else "stopped before the end",
                "returns": list(returns), "replay": self.replay}})
        return view

    def choose(self, version, action) -> dict:
        """Play the person's choice `action`, shown at decision `version`, then the agents'; Refused, changing nothing,
        for a stale or illegal one."""
        if type(version) is not int or type(action) is not int:
            raise Refused(400, 'expected JSON {"version": <decision number>, "action": <action index>}')
        with self.lock:
            if self.stopped:
                raise Refused(409, "the game is over: no more choices")
            if version != self.decisions:
                raise Refused(409, f"stale choice: it was shown at decision {version}, the game is at decision "
                                   f"{self.decisions}; reload the page")
            if not 0 <= action < self.rs.num_actions or not self.state.legal_action_mask()[action]:
                raise Refused(422, f"action {action} is not one of your legal choices now")
            try:
                self.play(action)
            except IllegalActionError as exc:     # the mask said legal: the rules refused it all the same
                raise Refused(422, str(exc).splitlines()[0]) from None
            self.advance()
            return self.view()

    def quit(self) -> dict:
        with self.lock:
            self.stop()
            return self.view()


# The server ---------------------------------------------------------------------------------------------------------
def app(game: WebGame) -> Starlette:
    """The page, its state and its two verbs. Only requests addressed to this machine by name are answered (a page
    elsewhere cannot rebind its own name to 127.0.0.1 and read the game), and a choice must be JSON: a form posted
    from another site cannot make one without asking first, which nothing here answers."""
    page = PAGE.read_text(encoding="utf-8")

    def index(request: Request) -> HTMLResponse:
        return HTMLResponse(page, headers={"Cache-Control": "no-store"})

    def state(request: Request) -> JSONResponse:
        with game.lock:
            return JSONResponse(game.view(), headers={"Cache-Control": "no-store"})

    async def choose(request: Request):
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return PlainTextResponse("a choice is posted as application/json", status_code=415)
        try:
            body = await request.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return PlainTextResponse('expected JSON {"version": <decision number>, "action": <action index>}', status_code=400)
        try:
            return JSONResponse(await run_in_threadpool(game.choose, body.get("version"), body.get("action")))
        except Refused as exc:
            return PlainTextResponse(exc.reason, status_code=exc.status)

    async def quit_game(request: Request):
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return PlainTextResponse("quit is posted as application/json", status_code=415)
        return JSONResponse(await run_in_threadpool(game.quit))

    routes = [Route("/", index), Route("/state", state), Route("/choose", choose, methods=["POST"]),
              Route("/quit", quit_game, methods=["POST"])]
    hosts = [HOST, "localhost"]
    return Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)],
                     max_body_size=MAX_BODY)


def bound_socket(port: int = 0) -> socket.socket:
    """A listening socket on 127.0.0.1:`port` (0: any free port)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, port))
    sock.listen(16)
    return sock


def server(game: WebGame, sock: socket.socket):
    """A uvicorn server of `game`'s app (its `run(sockets=[sock])` serves until Ctrl-C or `should_exit`)."""
    import uvicorn

    return uvicorn.Server(uvicorn.Config(app(game), host=HOST, port=sock.getsockname()[1], log_level="warning",
                                         access_log=False, lifespan="off"))


def serve(game: WebGame, port: int = 0, open_browser: bool = True) -> int:
    """Serve `game` on 127.0.0.1 until Ctrl-C, opening the page in the browser if there is one; the replay is written
    when the game ends, or here if it has not ended. 0 as the terminal game returns."""
    sock = bound_socket(port)
    url = f"http://{HOST}:{sock.getsockname()[1]}/"
    game.out.write(f"playing {game.rs.name} as {game.rs.sides[game.side]} at {url} (Ctrl-C stops the server)\n")
    game.out.flush()
    if open_browser:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    try:
        server(game, sock).run(sockets=[sock])
    except KeyboardInterrupt:      # uvicorn raises the Ctrl-C it caught again once it has shut down: a clean stop here
        pass
    finally:
        sock.close()
        with game.lock:
            game.stop()
    return 0
