"""The observation vector of one side (UW-HID-1/2/7): public state plus its own face-down orders.

Layout (float32):
  terrain planes 3 x 48 x 48: impassable (wall 1, window 0.5), difficult, cover (solid 1, flimsy 0.5)
  models 16 x 24: per model (team A slots 0..7, team B 8..15) the features of `model_features`
  globals 32: turn, me, decision kind one-hot (12), acting model (16 slots one-hot), ...
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .config import MAX_MODELS, SIZE
from .flow import Decision

CELLS = SIZE * SIZE
MODEL_FEATURES = 24
KINDS = list(Decision)
GLOBALS = 4 + len(KINDS) + 2 * MAX_MODELS + 4
SIZE_OBS = 3 * CELLS + 2 * MAX_MODELS * MODEL_FEATURES + GLOBALS
SIZE = SIZE_OBS


@lru_cache(maxsize=16)
def terrain_planes(board) -> np.ndarray:
    planes = np.zeros((3, CELLS), dtype=np.float32)
    for i, ch in enumerate(board.chars):
        planes[0, i] = 1.0 if ch == "#" else 0.5 if ch == "W" else 0.0
        planes[1, i] = 1.0 if board.cost[i][0] > 2 else 0.0
        planes[2, i] = {0: 0.0, 1: 1.0, 2: 0.5}[board.cover[i]]
    return planes.reshape(-1)


def model_features(game, m, side: int) -> list[float]:
    """Public features, plus the order: own face-down orders and face-up ones (UW-HID-2)."""
    p = m.profile
    seen = game.orders.seen_by(side, m.idx)
    has = game.orders.has(m.idx)
    x, y = (m.cell % 48, m.cell // 48) if m.placed else (-1, -1)
    return [float(m.placed), x / 47, y / 47, m.w / p.W, float(m.panic), float(m.activated),
            float(has and game.face_down(m)), float(seen == 0), float(seen == 1),
            m.fu_used / max(1, p.CAL), float(m.commander), float(p.role == "melee"),
            p.AS / 10, p.SH / 10, p.ST / 10, p.T / 10, p.W / 4, p.CD / 10, p.SZ / 4, p.MV / 6, p.CAL / 3,
            float(m.side == side), float(game.act is not None and game.act.get("model") == m.idx),
            float(m.cell >= 0 and not m.alive)]


def encode(game, side: int) -> np.ndarray:
    out = np.empty(SIZE_OBS, dtype=np.float32)
    out[:3 * CELLS] = terrain_planes(game.board)
    models = np.zeros((2 * MAX_MODELS, MODEL_FEATURES), dtype=np.float32)
    for m in game.models:
        models[m.side * MAX_MODELS + m.slot] = model_features(game, m, side)
    out[3 * CELLS:3 * CELLS + models.size] = models.reshape(-1)
    g = np.zeros(GLOBALS, dtype=np.float32)
    g[0] = game.turn / game.scenario.turns
    g[1] = float(side)
    deciding = game.decision is not None
    g[2] = float(deciding and game.current_side == side)
    g[3] = float(game.edges[side] == "north")
    if deciding:
        g[4 + KINDS.index(game.decision[0])] = 1.0        # UW-HID-8: the open decision is public
    act = game.act
    if act is not None and "path" in act:
        a = game.models[act["model"]]
        g[4 + len(KINDS) + a.side * MAX_MODELS + a.slot] = 1.0
        end = act["path"][-1]
        base = 4 + len(KINDS) + 2 * MAX_MODELS
        g[base:base + 4] = [end % 48 / 47, end // 48 / 47, float(act["kind"]) / 4, float(act["attempted"])]
    out[3 * CELLS + models.size:] = g
    return out
