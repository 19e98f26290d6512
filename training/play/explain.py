"""The play screen's explanations in the game's words (issue #40, point 2): what each decision is and for which unit,
where the map should be centred for it, the key's entries the renders leave out, why a dice event rolled that many
dice and what they needed, and why the enemy chose what it chose (its priority rule, or a trained agent's odds).

Everything reads the state as the deciding side may see it (its own units, the decision's context); nothing here
changes a game."""
from __future__ import annotations

import re

import numpy as np

_COORD = re.compile(r"\((\d+),\s*(\d+)\)")
_SQUARE = re.compile(r"\b([a-r])(\d{1,2})\b")


def _ctx(state) -> dict:
    decision = getattr(state, "decision", None)
    return decision[1] if isinstance(decision, tuple) and len(decision) > 1 and isinstance(decision[1], dict) else {}


def _kind(state) -> str:
    kind = state.decision_kind()
    return "" if kind is None else str(kind)


# What the decision is ---------------------------------------------------------------------------------------------
def decision_words(rs_name: str, state, side: int) -> str:
    """One sentence: whose decision, for which unit, what it decides (and what the answers mean where the labels
    alone do not say)."""
    kind = _kind(state)
    try:
        words = WORDS.get(rs_name.split("-")[0], lambda s, k: None)(state, kind)
    except (AttributeError, IndexError, KeyError, TypeError):
        words = None
    return words or f"decide: {kind.replace('_', ' ') or 'choose'}"


def _rifles(game, kind: str) -> str | None:
    ctx = _ctx(game)
    group = game.players[game.active].name if 0 <= getattr(game, "active", -1) < len(game.players) else None
    if kind == "player":
        if group is None:
            return (f"Player phase, {game.ap} AP left: activate a group (it then moves, fires, rallies for AP), "
                    "reveal a marker with a Recon Point, or end the phase (RB-AP-1)")
        return f"group {group} is active ({game.ap} AP left): choose its action; each costs AP (RB-AP-1)"
    if kind == "rubble_cost":
        g = game.players[ctx["group"]].name
        return f"group {g} moves into rubble: pay the extra AP the d6 asked for, or decline the move (RU-RUB-1)"
    return None


def _cityfight(game, kind: str) -> str | None:
    ctx = _ctx(game)
    side = ctx.get("side", game.current_side)
    e = game.element(side, ctx["element"]) if "element" in ctx else None
    who = f"{e.name} ({game.tables.elements[e.row].name}) at {game.name(e.square)}" if e is not None and e.square >= 0 else (e.name if e else "")
    if kind == "activate":
        return ("activate one of your elements (its actions spend AP from the section's pool), or declare Out: "
                "your section does nothing more this turn (CF-ACT)")
    if kind == "act":
        return f"{who} is active, {e.ap_spent} AP spent this turn: choose its action (pass ends its activation)"
    if kind == "dice":
        return f"{who} fires at {game.name(ctx['target'])}: roll 1 die or 2 (CF-FIRE-8)"
    if kind == "ifa":
        return f"{who} may fire at once at a square its search spotted (CF-SRCH-23), or pass"
    if kind == "join":
        return f"{who} may join the search of the megasquare (1 AP, CF-ACT-12), or pass"
    if kind == "return_fire":
        return f"you were fired on from {game.name(ctx['origin'])}: return fire at it (1 AP, CF-AUTO-4), or pass"
    if kind == "overwatch_fire":
        return f"{who} is on overwatch: fire at the enemy that showed itself (CF-ACT-5), or pass"
    if kind == "announce":
        return "announce the search result's category (CF-SRCH-7)"
    return None


def _k47(game, kind: str) -> str | None:
    ctx = _ctx(game)
    unit = game.units[ctx["uid"]].name if "uid" in ctx else None
    if kind == "unit":
        return "your order die was drawn from the bag: choose the unit that takes an order (KC-TURN-2)"
    if kind == "order":
        return f"{unit}: choose its order (fire, advance, run, ambush, rally or down; KC-ORD-1..6)"
    if kind == "move":
        return f"{unit} ({ctx.get('order', 'moves')}): choose where it goes; type the place as 15,13 (KC-ORD-2/3)"
    if kind == "target":
        return f"{unit}: choose what it fires at, or hold fire (KC-SHOOT-3)"
    if kind == "down":
        firer = game.units[ctx["firer"]].name
        return (f"{unit} is fired at by {firer}: go Down? Down uses its order die for this turn, and shots at it "
                "hit less often (KC-SHOOT-2, KC-ORD-6)")
    if kind == "react_fire":
        return f"{unit} is assaulted by {game.units[ctx['attacker']].name}: fire at it first? (KC-CQ-3)"
    if kind == "ambush":
        return f"{unit} is on Ambush: fire at the unit moving now? (KC-AMB-1)"
    if kind == "keep":
        order = game.units[ctx["uid"]].order or "Down/Ambush"
        return (f"{unit} holds a {order} order die: keep it into the next turn, or return it to the bag "
                "(KC-TURN-5/9)")
    if kind == "friendly":
        return "choose which of the enemy's own units its friendly fire falls on (KC-ORD-10)"
    if kind == "opening":
        return f"{unit}: choose the opening its fixed weapon fires from (KB-FROM-5)"
    return None


def _urbanwar(game, kind: str) -> str | None:
    ctx = _ctx(game)
    act = getattr(game, "act", None) or {}
    index = ctx.get("model", act.get("model", -1))
    model = game.models[index] if isinstance(index, int) and 0 <= index < len(game.models) else None
    who = f"{model.id} ({model.profile.name})" if model is not None else "your model"
    if kind == "edge":
        return "choose your table edge (UW-DEC-1)"
    if kind == "deploy_first":
        return "choose who deploys first (UW-DEC-1)"
    if kind == "deploy":
        return f"deploy {who}: choose its cell in your zone; type it as x,y (UW-DEC-1)"
    if kind == "order":
        return f"{who}: choose its face-down order, Overwatch or Snap-fire (UW-DEC-2)"
    if kind == "initiative":
        return "you won the roll-off: activate first, or let the opponent (UW-DEC-3)"
    if kind == "activate":
        return "choose the model you activate next (UW-DEC-4)"
    if kind == "action":
        return f"{who}: choose its action (UW-DEC-5)"
    if kind == "dest":
        return f"{who} moves: choose its cell (x,y, then the step from where it stands; UW-DEC-5)"
    if kind == "react":
        return f"{who} may react to the enemy's action (UW-DEC-6)"
    if kind == "shoot":
        return f"{who}: choose what it shoots at, or hold fire (UW-DEC-7)"
    if kind == "cc_target":
        return f"{who}: choose whom it strikes in close combat (UW-DEC-7)"
    if kind == "followup":
        return f"{who}: take a follow-up action or not (UW-DEC-8)"
    return None


WORDS = {"rifles": _rifles, "cityfight": _cityfight, "k47": _k47, "urbanwar": _urbanwar}


def choice_label(rs_name: str, state, action: int) -> str | None:
    """A yes/no answer in the decision's own words ('go Down', 'keep the die'), where the label is generic."""
    if rs_name != "k47":
        return None
    kind, label = _kind(state), state.action_label(action)
    yes = label.startswith("yes")
    words = {"down": ("go Down", "do not go Down"), "react_fire": ("fire at the assaulter", "do not fire"),
             "ambush": ("fire from Ambush", "hold the Ambush"), "keep": ("keep the die", "return the die to the bag")}
    if kind in words and (yes or label.startswith("pass")):
        return words[kind][0 if yes else 1]
    return None


# Where the map is centred ----------------------------------------------------------------------------------------
def focus_row(rs_name: str, state, labels: list[str]) -> int | None:
    """The map row (its number as the render prints it) the decision is about: the active unit's, else the first
    place a choice names."""
    ctx = _ctx(state)
    try:
        if rs_name == "cityfight" and "element" in ctx:
            square = state.element(ctx.get("side", state.current_side), ctx["element"]).square
            if square >= 0:
                return square // state.board.width + 1
        if rs_name == "k47" and "uid" in ctx and state.units[ctx["uid"]].cell is not None:
            return state.units[ctx["uid"]].cell[1]
        if rs_name == "urbanwar":
            index = ctx.get("model", (getattr(state, "act", None) or {}).get("model", -1))
            if isinstance(index, int) and 0 <= index < len(state.models) and state.models[index].cell >= 0:
                return state.models[index].cell // 48
    except (AttributeError, IndexError, KeyError, TypeError):
        pass
    for label in labels:
        if m := _COORD.search(label):
            return int(m.group(2))
        if rs_name == "cityfight" and (m := _SQUARE.search(label)):
            return int(m.group(2))
    return None


# The key ------------------------------------------------------------------------------------------------------
def key(rs_name: str, state, legend) -> list[tuple[str, str]]:
    """The map key as shown: the render's legend, its enemy-marker entry naming this scenario's markers, and what
    the unit list's own symbols mean."""
    entries = list(legend)
    if rs_name.startswith("rifles"):
        names = [m.name for m in getattr(state, "markers", []) if m is not None]
        if names:
            shown = f"{names[0]}..{names[-1]}" if len(names) > 1 else names[0]
            entries = [(shown, meaning) if symbol == "E1 ..." else (symbol, meaning) for symbol, meaning in entries]
        entries.append(("AP BAP Recon", "Action Points left, Bonus AP left, Recon Points left"))
    if rs_name == "cityfight":
        rows = sorted({e.row for es in state.elements for e in es})
        entries += [(f"({row})", f"profile {row}: {state.tables.elements[row].name}") for row in rows]
        specials = sorted({e.special for es in state.elements for e in es if e.special})
        names = {"UGL": "under-barrel grenade launcher", "RPG": "rocket launcher", "RCL": "recoilless rifle",
                 "LAW": "light anti-tank weapon, one shot"}
        entries += [(f"+{s}", f"carries a {names.get(s, s)} (special weapon)") for s in specials]
        entries += [("AP n", "the AP this element has spent this turn"),
                    ("A:14AP/LR3", "section A: AP left in its pool, its leader's rating"),
                    ("S / K", "fire results: suppressed / killed")]
    if rs_name == "k47":
        entries += [("pins", "pin markers: each makes orders and shots harder"), ("order -", "no order die yet this turn"),
                    ("bag A 4 B 4", "order dice left in the bag per side")]
    if rs_name == "urbanwar":
        entries += [("(x,y)", "a cell: column x, row y; a move also shows its step, e.g. -4,+0")]
    return entries


# Dice events ----------------------------------------------------------------------------------------------------
def event_note(rs_name: str, event) -> str:
    """Why an event rolled as many dice as it did, and what they needed, where its text does not say."""
    dice = list(event.dice or ())
    if not dice:
        return ""
    kind, text, n = event.kind, event.text, len(dice)
    if rs_name.startswith("rifles") and kind == "fire":
        units = re.search(r"\((\d+) units?", text)
        return f"{n} dice: each of the {units.group(1) if units else ''} units rolls its weapon's CF in dice".replace("the  ", "the ")
    if rs_name == "k47" and kind == "to_hit":
        return f"{n} dice: one per shot (x{n}); each needs the score shown, a 6 then 4+ for a 7+"
    if rs_name == "urbanwar" and kind in ("to_hit", "cc_hit"):
        return "a d10 per shot plus the modifier; 10+ hits, a natural 10 always, a natural 1 never (UW-DICE-1)"
    if rs_name == "cityfight" and kind == "fire":
        return f"{n} {'die' if n == 1 else 'dice'} as the firer chose; each die + fire strength against the cover (CF-FIRE-10)"
    if rs_name == "cityfight" and kind == "search_roll":
        return "2d6 for the search (CF-SRCH)"
    return ""


# The enemy's reasons ----------------------------------------------------------------------------------------------
def enemy_reason(agent, state, side: int, action: int, top: int = 3) -> str:
    """Why `agent` chose `action`: the rule of its priority list that decided (scripted, distilled), or a trained
    agent's top choices with their probabilities. Read before the action is applied."""
    rule_for = getattr(agent, "rule_for", None)
    if rule_for is not None:
        try:
            rule = rule_for(state.view(side))
        except Exception:    # noqa: BLE001 - a reason is a courtesy; the game goes on without it
            rule = None
        if rule:
            words = getattr(agent, "rule_words", None)
            try:
                said = words(rule) if words else ""
            except (KeyError, AttributeError):
                said = ""
            return f"rule {rule}" + (f": {said}" if said else "")
        return ""
    policy = getattr(agent, "member", agent)
    logits = getattr(policy, "logits", None)
    if logits is None:
        return ""
    observation = state.observation(side)
    if getattr(policy, "reads", None) is not None:
        observation = observation[:policy.reads]
    mask = state.legal_action_mask()
    scores = np.where(mask, logits(observation), -np.inf)
    probs = np.exp(scores - scores.max())
    probs /= probs.sum()
    best = [int(a) for a in np.argsort(-probs)[:top] if probs[a] > 0]
    return "trained agent's top choices: " + ", ".join(f"{state.action_label(a)} {probs[a]:.0%}" for a in best)
