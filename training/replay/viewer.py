"""The replay viewer: one self-contained HTML page per game (`rubble replay FILE --html OUT`), and a GIF.

The page holds everything (no network, no server): the board after every step as PNG data URIs, rendered by
the ruleset's own `render_rgb(side)` for the umpire (None) and for each side, so a side's view hides what
that side may not know. Identical pictures are stored once (most steps change one view, or none), which keeps
pages small. The step's action, its events (dice, rule IDs) and the outcome come from the replay file. Beside the
board, a card per unit of the view (training/replay/unit_cards.py, which the play screen's panel prints too): every card
and every step's set of cards is stored once, as the tiles are.
"""
from __future__ import annotations

import base64
import html
import io
import json
from pathlib import Path

import numpy as np
from PIL import Image

from . import files as replay
from . import unit_cards

# Pictures -------------------------------------------------------------------------------------------------------
TILE_W, TILE_H = 64, 48   # measured: smaller tiles share more between steps, larger ones cost less per tile


class Frames:
    """Every picture cut into tiles; a tile is stored once as a PNG however often it appears, and a picture is
    the list of its tiles. A step changes a few squares and a status line, so it costs a few new tiles."""

    def __init__(self) -> None:
        self.tiles: list[bytes] = []
        self.frames: list[list[int]] = []
        self.shape = None
        self._tile, self._frame = {}, {}

    def add(self, rgb) -> int:
        """The index of the picture `rgb`, stored if new."""
        key = rgb.tobytes()
        if key in self._frame:
            return self._frame[key]
        if self.shape is None:
            self.shape = rgb.shape
        elif rgb.shape != self.shape:
            raise replay.ReplayError(f"the ruleset drew a {rgb.shape} picture after {self.shape} ones; "
                                     "the viewer needs one size per game")
        self._frame[key] = len(self.frames)
        self.frames.append([self._tile_index(rgb[y:y + TILE_H, x:x + TILE_W])
                            for y in range(0, rgb.shape[0], TILE_H) for x in range(0, rgb.shape[1], TILE_W)])
        return self._frame[key]

    def _tile_index(self, tile) -> int:
        key = (tile.shape, tile.tobytes())
        if key not in self._tile:
            self._tile[key] = len(self.tiles)
            out = io.BytesIO()
            Image.fromarray(tile).save(out, format="PNG")
            self.tiles.append(out.getvalue())
        return self._tile[key]

    def encoded(self) -> list:
        """Picture 0 as its full tile list, each later one as [position, tile] changes from the one before."""
        out, before = [], None
        for tiles in self.frames:
            out.append(tiles if before is None else [[i, t] for i, (t, b) in enumerate(zip(tiles, before)) if t != b])
            before = tiles
        return out


def scaled(rgb, scale: float | None) -> Image.Image:
    image = Image.fromarray(rgb)
    if scale is not None and scale != 1.0:
        image = image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))), Image.LANCZOS)
    return image


class CardSets:
    """Each view's unit cards after every step, stored as the tiles are: a (what, value) field once, a card once as
    [side, name, its fields], a set of cards once as the list of its cards; per view and step, the set's index.
    A step mostly changes one field of one unit."""

    def __init__(self, views) -> None:
        self.fields: list[list[str]] = []
        self.cards: list[list] = []
        self.sets: list[list[int]] = []
        self.views: dict[str, list[int]] = {str(v): [] for v in views}
        self._field, self._card, self._set = {}, {}, {}

    def add(self, view: str, cards) -> None:
        ids = tuple(self._card_index(c) for c in cards)
        self.views[view].append(_stored(self._set, self.sets, ids, list))

    def _card_index(self, card) -> int:
        return _stored(self._card, self.cards, card, lambda c: [
            c.side, c.name, [_stored(self._field, self.fields, f, list) for f in c.fields]])


def _stored(index: dict, table: list, key, encode) -> int:
    """The position of `key` in `table`, appended (as `encode(key)`) if new."""
    if key not in index:
        index[key] = len(table)
        table.append(encode(key))
    return index[key]


def collect_frames(data: dict, path) -> tuple[Frames, dict[str, list[int]], CardSets, list[tuple[str, str]]]:
    """Re-play the game (checking it, as --verify does) and render every view after every step, and its cards;
    and the legend of the pictures (their key strip, read at the start)."""
    frames = Frames()
    sides = range(len(data["sides"]))
    views: dict[str, list[int]] = {"umpire": [], **{str(s): [] for s in sides}}
    cards = CardSets(views)
    key: list[tuple[str, str]] = []

    def on_step(index, state) -> None:
        if index == 0:
            key.extend(legend(data["ruleset"], state))
        for view, side in (("umpire", None), *((str(s), s) for s in sides)):
            views[view].append(frames.add(state.render_rgb(side)))
            cards.add(view, unit_cards.cards(data["ruleset"], state, side))

    replay.replay_steps(data, path, on_step)
    return frames, views, cards, key


# The legend -----------------------------------------------------------------------------------------------------
def _hex(colour) -> str:
    return "#" + "".join(f"{c:02x}" for c in colour)


def legend(ruleset: str, state=None) -> list[tuple[str, str]]:
    """(swatch CSS colour or a symbol, meaning) for every item of the key strip under `ruleset`'s picture of
    `state` (the ruleset's `picture_key`, declared once by its render, so the page and the picture agree)."""
    from envs import registry

    items = registry.get(ruleset).picture_key(state)
    # A swatch drawn as words in the strip ("west-edge bars") joins its meaning: the legend's symbol column is narrow.
    return [(_hex(swatch), meaning) if isinstance(swatch, tuple) else
            (swatch, meaning) if len(swatch) <= 2 else ("▮", f"{swatch.rstrip(':')}: {meaning}") for swatch, meaning in items]


# The page ---------------------------------------------------------------------------------------------------------
def page_data(data: dict, frames: Frames, views: dict, cards: CardSets) -> dict:
    """What the page's script reads: the header, per-step text, pictures, views and unit cards."""
    steps = [{"side": None, "label": "start of the game", "events": []}]
    steps += [{"side": s["side"], "label": s["label"] or f"action {s['action']}",
               "events": [{k: e[k] for k in ("kind", "side", "dice", "text", "rules")} for e in s["events"]]}
              for s in data["steps"]]
    return {"ruleset": data["ruleset"], "scenario": data["scenario"], "seed": data["seed"], "sides": data["sides"],
            "agents": data["agents"], "outcome": data.get("outcome"), "steps": steps, "views": views,
            "picture": {"height": frames.shape[0], "width": frames.shape[1], "tile_w": TILE_W, "tile_h": TILE_H},
            "tiles": ["data:image/png;base64," + base64.b64encode(p).decode("ascii") for p in frames.tiles],
            "frames": frames.encoded(), "card_fields": cards.fields, "cards": cards.cards, "card_sets": cards.sets, "card_views": cards.views}


def outcome_text(data: dict) -> str:
    """The result, the returns per side, the length of the game."""
    out = data.get("outcome")
    if not out:
        return "not recorded"
    returns = ", ".join(f"{s} {r:+g}" for s, r in zip(data["sides"], out["returns"]))
    turn = f" in turn {out['turn']}" if out.get("turn") is not None else ""
    return f"{replay.result_text(data)}{turn} after {out['decisions']} decisions (returns: {returns})"


def render_page(data: dict, frames: Frames, views: dict, cards: CardSets, key: list[tuple[str, str]]) -> str:
    # Every "<" as \u003c: inside <script>, "</script" ends the block and "<!--<script" makes the parser look for
    # two ends; with no "<" at all, no string in the file (an agent's name...) can do either. JSON reads it back as "<".
    payload = json.dumps(page_data(data, frames, views, cards), separators=(",", ":")).replace("<", "\\u003c")
    title = f"{data['ruleset']} · {data['scenario']} · seed {data['seed']}"
    legend_rows = "".join(
        f'<li><span class="sw" style="background:{html.escape(sw)}"></span>{html.escape(text)}</li>'
        if sw.startswith("#") else f'<li><span class="sym">{html.escape(sw)}</span>{html.escape(text)}</li>'
        for sw, text in key)
    buttons = "".join(f'<button id="view-{s}" data-view="{s}">{html.escape(name)} <kbd>{s + 1}</kbd></button>'
                      for s, name in enumerate(data["sides"]))
    return (TEMPLATE.replace("%TITLE%", html.escape(title)).replace("%BUTTONS%", buttons)
            .replace("%LEGEND%", legend_rows).replace("%OUTCOME%", html.escape(outcome_text(data)))
            .replace("%DATA%", payload))


def write_html(source: Path, out: Path) -> Path:
    """Write the viewer page of replay `source` to `out` (never over an existing file)."""
    data = replay.load(source)
    frames, views, cards, key = collect_frames(data, source)
    text = render_page(data, frames, views, cards, key)
    with open(out, "x", encoding="utf-8") as f:
        f.write(text)
    return Path(out)


VIDEO_SUFFIXES = (".gif", ".mp4")


def write_video(source: Path, out: Path, side: str | None = None, scale: float | None = None) -> Path:
    """An animated GIF or an MP4 (by `out`'s suffix) of one view (the umpire's unless `side`), one frame per step,
    two frames a second, through imageio (MP4: its ffmpeg wheel, imageio-ffmpeg)."""
    suffix = Path(out).suffix.lower()
    if suffix not in VIDEO_SUFFIXES:
        raise replay.ReplayError(f"{out}: expected a file name ending in {' or '.join(VIDEO_SUFFIXES)}")
    try:
        import imageio.v3 as iio
        if suffix == ".mp4":
            import imageio_ffmpeg  # noqa: F401  (imageio's ffmpeg plugin finds the binary through it)
    except ModuleNotFoundError as exc:
        raise replay.ReplayError(f"{suffix} needs {exc.name} (pip install -e \".[replay]\")") from None
    data = replay.load(source)
    numbers = {**{name: str(s) for s, name in enumerate(data["sides"])},
               **{str(s): str(s) for s in range(len(data["sides"]))}}
    if side is not None and side not in numbers:
        raise replay.ReplayError(f"--side {side}: expected one of the sides {', '.join(data['sides'])} (or their numbers)")
    view = None if side is None else int(numbers[side])
    pictures = []

    def on_step(_, state) -> None:
        pictures.append(np.asarray(scaled(state.render_rgb(view), scale)))

    replay.replay_steps(data, source, on_step)
    if Path(out).exists():
        raise FileExistsError(0, "exists", str(out))
    if suffix == ".gif":
        iio.imwrite(out, pictures, duration=500, loop=0)
    else:   # H.264 players want sides in multiples of 16: pad the edges rather than let ffmpeg rescale
        h, w = pictures[0].shape[:2]
        frames = [np.pad(p, ((0, -h % 16), (0, -w % 16), (0, 0)), mode="edge") for p in pictures]
        iio.imwrite(out, frames, plugin="FFMPEG", fps=2, codec="libx264",
                    pixelformat="yuv420p")
    return Path(out)


TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>%TITLE%</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px system-ui,sans-serif;margin:12px;color:#222;background:#fafafa}
h1{font-size:18px;margin:0 0 4px} .sub{color:#555;margin-bottom:8px}
.bar{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin:6px 0}
button{font:inherit;padding:3px 9px;border:1px solid #999;background:#fff;border-radius:4px;cursor:pointer}
button.on{background:#2a5bd7;color:#fff;border-color:#2a5bd7}
#slider{flex:1;min-width:240px} #counter{font-variant-numeric:tabular-nums;min-width:110px}
.main{display:flex;gap:16px;align-items:flex-start;flex-wrap:wrap}
#board{border:1px solid #bbb;background:#fff;max-width:100%}
.side{max-width:460px;flex:1;min-width:300px}
#action{font-weight:600;margin:4px 0} #events{margin:4px 0;padding-left:18px}
#events li{margin:2px 0} .dice{font-family:monospace;background:#eee;padding:0 4px;border-radius:3px}
.rule{font-family:monospace;background:#fff3c4;padding:0 4px;border-radius:3px;margin-left:4px}
.kind{color:#777;font-size:12px;margin-right:4px} #outcome{padding:6px;background:#eef5ea;border:1px solid #bcd8b0}
#legend{columns:2;padding-left:0;list-style:none;font-size:13px} #legend li{margin:2px 0;break-inside:avoid}
.sw{display:inline-block;width:14px;height:14px;border:1px solid #555;vertical-align:middle;margin-right:6px}
.sym{display:inline-block;width:16px;text-align:center;font-weight:700;margin-right:4px}
.note{color:#666;font-size:12px}
kbd{font-size:11px;border:1px solid #aaa;border-radius:3px;padding:0 3px;background:#fff;color:#333}
#cards{display:flex;flex-wrap:wrap;gap:6px} .card{border:1px solid #bbb;border-top:4px solid #888;background:#fff;
border-radius:4px;padding:3px 7px;width:190px;font-size:12px} .card.s0{border-top-color:#2a5bd7}
.card.s1{border-top-color:#c8322a} .card b{font-size:13px} .card .owner{color:#777;float:right}
.card div{margin:1px 0} .card i{color:#777;font-style:normal}
</style></head><body>
<h1>%TITLE%</h1><div class="sub" id="players"></div>
<div class="bar"><span>View:</span><button id="view-umpire" data-view="umpire">umpire <kbd>U</kbd></button>%BUTTONS%
<span class="note">a side's view shows only what that side knows</span></div>
<div class="bar"><button id="prev" title="previous step (←)">◀</button><input type="range" id="slider" min="0" value="0">
<button id="next" title="next step (→)">▶</button><span id="counter"></span></div>
<div class="main"><canvas id="board" aria-label="the board"></canvas>
<div class="side"><div id="who"></div><div id="action"></div><ol id="events"></ol>
<h3>Outcome</h3><div id="outcome">%OUTCOME%</div>
<h3>Legend</h3><ul id="legend">%LEGEND%</ul>
<p class="note">Keys: ← → step, Home/End first/last, U umpire's view, 1 2 … a side's view. Dice in grey, rule IDs
in yellow. In a side's view the picture is that side's and the other sides' decisions and events are hidden.</p></div></div>
<h3>Units <span class="note" id="cards-note"></span></h3><div id="cards"></div>
<script type="application/json" id="data">%DATA%</script>
<script>
"use strict";
const R = JSON.parse(document.getElementById("data").textContent);
const last = R.steps.length - 1;
let step = 0, view = "umpire";
const $ = (id) => document.getElementById(id);
const slider = $("slider");
slider.max = String(last);
$("players").textContent = R.sides.map((s, i) => s + ": " + R.agents[i]).join(" · ");
function el(tag, cls, text) {
  const e = document.createElement(tag); if (cls) e.className = cls; e.textContent = text; return e;
}
// Pictures: frame 0 lists every tile, each later frame only the tiles that differ from the frame before it.
const P = R.picture, cols = Math.ceil(P.width / P.tile_w);
const frames = [];
for (const f of R.frames) {
  if (!frames.length) { frames.push(f.slice()); continue; }
  const next = frames[frames.length - 1].slice();
  for (const [pos, tile] of f) { next[pos] = tile; }
  frames.push(next);
}
const board = $("board"), ctx = board.getContext("2d");
board.width = P.width; board.height = P.height;
const tiles = R.tiles.map((src) => { const im = new Image(); im.src = src; return im; });
function draw(frame) {
  frames[frame].forEach((t, pos) => ctx.drawImage(tiles[t], (pos % cols) * P.tile_w, Math.floor(pos / cols) * P.tile_h));
}
function show() {
  const frame = R.views[view][step];
  draw(frame);
  board.dataset.frame = String(frame);
  board.dataset.view = view;
  $("counter").textContent = "step " + step + " / " + last;
  slider.value = String(step);
  const s = R.steps[step];
  // In a side's view another side's decision and its events stay hidden: the log is the umpire's and names
  // what that side may not know (hidden moves, the other side's dice).
  const hidden = view !== "umpire" && s.side !== null && String(s.side) !== view;
  $("who").textContent = s.side === null ? "the start, before any decision"
    : R.sides[s.side] + " played (the picture shows the board after it):";
  $("action").textContent = hidden ? "(hidden in this view)" : s.label;
  const list = $("events");
  list.replaceChildren();
  for (const e of (hidden ? [] : s.events)) {
    const li = el("li", "", "");
    li.append(el("span", "kind", e.kind), document.createTextNode(e.text));
    if (e.dice.length) { li.append(" ", el("span", "dice", "dice " + e.dice.join(" "))); }
    for (const r of e.rules) { li.append(el("span", "rule", r)); }
    list.append(li);
  }
  if ((hidden || !s.events.length) && step > 0) {
    list.append(el("li", "note", hidden ? "events hidden in this view" : "no events"));
  }
  for (const b of document.querySelectorAll("button[data-view]")) { b.classList.toggle("on", b.dataset.view === view); }
  showCards();
}
// Unit cards: the view's set of cards after this step (a side's holds only what that side may know).
function showCards() {
  const box = $("cards");
  box.replaceChildren();
  const ids = R.card_sets[R.card_views[view][step]];
  for (const id of ids) {
    const [side, name, fields] = R.cards[id];
    const card = el("div", "card s" + side, "");
    card.dataset.side = String(side);
    const head = el("div", "", "");
    head.append(el("b", "", name), el("span", "owner", R.sides[side]));
    card.append(head);
    for (const [what, value] of fields.map((f) => R.card_fields[f])) {
      const row = el("div", "", "");
      if (what) { row.append(el("i", "", what + " ")); }
      row.append(value);
      card.append(row);
    }
    box.append(card);
  }
  $("cards-note").textContent = (view === "umpire" ? "every unit" : "what " + R.sides[Number(view)] + " may know")
    + ", after this step";
  if (!ids.length) { box.append(el("p", "note", "no units in this view")); }
}
function go(n) { step = Math.max(0, Math.min(last, n)); show(); }
function setView(v) { if (v in R.views) { view = v; show(); } }
$("prev").onclick = () => go(step - 1);
$("next").onclick = () => go(step + 1);
slider.oninput = () => go(Number(slider.value));
for (const b of document.querySelectorAll("button[data-view]")) { b.onclick = () => setView(b.dataset.view); }
document.addEventListener("keydown", (ev) => {
  if (ev.key === "ArrowRight") { go(step + 1); }
  else if (ev.key === "ArrowLeft") { go(step - 1); }
  else if (ev.key === "Home") { go(0); }
  else if (ev.key === "End") { go(last); }
  else if (ev.key === "u" || ev.key === "U") { setView("umpire"); }
  else if (/^[1-9]$/.test(ev.key)) { setView(String(Number(ev.key) - 1)); }
  else { return; }
  ev.preventDefault();
});
Promise.all(tiles.map((im) => im.decode())).then(() => { document.body.dataset.ready = "1"; show(); });
</script></body></html>
"""
