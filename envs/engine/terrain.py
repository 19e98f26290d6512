"""Terrain as properties, not classes: each ruleset declares its terrain types as data.

A `TerrainType` is a row of properties (cover class, blocks LOS, passable, move cost, floors, tags);
a `TerrainRegistry` holds a ruleset's types and its ordered cover classes, loaded from a dict or a
YAML section:

    terrain:
      cover_classes: [open, cluttered, wood]        # weakest first; the first is the default
      types:
        open:   {symbol: "."}
        rubble: {symbol: ":", cover: cluttered, tags: [rubble]}
        wood:   {symbol: "T", cover: wood, blocks_los: true, tags: [ends_move]}

A map is an (H, W) int array of type indices ("kinds"); every per-cell property array is one numpy
gather, `registry.vector(prop)[kinds]`, so terrain that changes in play (rubble, fire) is a write
to `kinds`, never a new class.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .scenario import Fields, ScenarioError

_TYPE_FIELDS = ("symbol", "cover", "blocks_los", "passable", "move_cost", "floors", "tags")
_VECTOR_DTYPES = {"blocks_los": bool, "passable": bool, "move_cost": np.int32, "floors": np.int32}


@dataclass(frozen=True, slots=True)
class TerrainType:
    """One kind of cell and its properties; rules read properties, never the name."""

    name: str
    cover: str                   # a cover class of the registry (CF-TER-1 rows, KC-MAP-9 soft/hard, UW-COVER)
    blocks_los: bool = False     # CF-TER-3, KC-MAP-7, UW-LOS-2
    move_cost: int = 1           # step-cost multiplier on entering (UW-MOVE-2 difficult ground: 2)
    floors: int = 0              # storeys a unit may occupy inside (0: none; KB-GRID-3 sets them per section)
    passable: bool = True        # UW-MOVE-3, KC-MAP-5
    symbol: str = ""             # its character in text maps (CF-SCN-1 legend, UW-TAB-2)
    tags: frozenset[str] = frozenset()   # ruleset flags: "rubble", "doorway", "ends_move", ...

    def __post_init__(self) -> None:
        # Accept any iterable of tags but store a frozenset, so types stay hashable and immutable.
        object.__setattr__(self, "tags", frozenset(self.tags))

    def has(self, tag: str) -> bool:
        """True if the type carries `tag`."""
        return tag in self.tags


@dataclass(frozen=True)
class TerrainRegistry:
    """A ruleset's terrain types (index = kind code) and its cover classes, weakest first."""

    types: tuple[TerrainType, ...]
    cover_classes: tuple[str, ...]

    def __post_init__(self) -> None:
        _check_unique("terrain type", [t.name for t in self.types])
        _check_unique("terrain symbol", [t.symbol for t in self.types if t.symbol])
        _check_unique("cover class", list(self.cover_classes))
        for t in self.types:
            if t.cover not in self.cover_classes:
                classes = ", ".join(self.cover_classes)
                raise ValueError(f"terrain {t.name!r}: cover {t.cover!r} is not one of {classes}")

    @property
    def names(self) -> tuple[str, ...]:
        """Type names in kind-code order."""
        return tuple(t.name for t in self.types)

    def index(self, name: str) -> int:
        """The kind code of a type name."""
        try:
            return self.names.index(name)
        except ValueError:
            raise KeyError(f"unknown terrain {name!r}; known: {', '.join(self.names)}") from None

    def __getitem__(self, name: str) -> TerrainType:
        return self.types[self.index(name)]

    def by_symbol(self, symbol: str) -> TerrainType:
        """The type drawn as `symbol` in text maps."""
        for t in self.types:
            if t.symbol == symbol:
                return t
        raise KeyError(f"unknown terrain symbol {symbol!r}; known: {''.join(t.symbol for t in self.types)}")

    def cover_level(self, cover: str) -> int:
        """Rank of a cover class, 0 = weakest; 'hard replaces soft' is a max over ranks (KC-MAP-9, UW-COVER-6)."""
        return self.cover_classes.index(cover)

    def vector(self, prop: str) -> np.ndarray:
        """Per-type values of a property ('blocks_los', 'passable', 'move_cost', 'floors', 'cover' as rank)."""
        if prop == "cover":
            return np.array([self.cover_level(t.cover) for t in self.types], dtype=np.int32)
        if prop not in _VECTOR_DTYPES:
            raise KeyError(f"unknown terrain property {prop!r}; known: cover, {', '.join(_VECTOR_DTYPES)}")
        return np.array([getattr(t, prop) for t in self.types], dtype=_VECTOR_DTYPES[prop])

    def tag_vector(self, tag: str) -> np.ndarray:
        """Per-type bool: does the type carry `tag`."""
        return np.array([t.has(tag) for t in self.types], dtype=bool)

    def kinds(self, names) -> np.ndarray:
        """(H, W) int kind codes from rows of type names."""
        return np.array([[self.index(n) for n in row] for row in names], dtype=np.int32)

    def parse_map(self, rows) -> np.ndarray:
        """(H, W) int kind codes from a text map, one string per row, one symbol per cell."""
        _check_rectangular(rows)
        return np.array([[self._symbol_index(ch, x, y) for x, ch in enumerate(row)] for y, row in enumerate(rows)],
                        dtype=np.int32)

    def _symbol_index(self, symbol: str, x: int, y: int) -> int:
        try:
            return self.types.index(self.by_symbol(symbol))
        except KeyError as err:
            raise ValueError(f"map row {y + 1}, column {x + 1}: {err.args[0]}") from None

    def properties(self, kinds: np.ndarray) -> dict[str, np.ndarray]:
        """Every per-cell property array of a map: blocks_los, passable, move_cost, floors, cover (rank)."""
        kinds = np.asarray(kinds)
        return {prop: self.vector(prop)[kinds] for prop in ("cover", *_VECTOR_DTYPES)}

    def cells_tagged(self, kinds: np.ndarray, tag: str) -> np.ndarray:
        """(H, W) bool: cells whose type carries `tag`."""
        return self.tag_vector(tag)[np.asarray(kinds)]

    @classmethod
    def from_dict(cls, data: dict, file: str = "<terrain>") -> TerrainRegistry:
        """Load from a plain dict shaped like the YAML section; errors name `file` and the field."""
        return load_terrain(Fields(data, file))


def _check_unique(what: str, values: list[str]) -> None:
    seen = set()
    for value in values:
        if value in seen:
            raise ValueError(f"{what} {value!r} declared twice")
        seen.add(value)


def _check_rectangular(rows) -> None:
    if not rows or any(len(row) != len(rows[0]) for row in rows) or not rows[0]:
        raise ValueError(f"a text map needs non-empty rows of equal length; got lengths {[len(r) for r in rows]}")


# Loading from config -------------------------------------------------------------------------------

def load_terrain(fields: Fields) -> TerrainRegistry:
    """Read `cover_classes` and `types` from a config section (a `Fields`), validating every field."""
    fields.unknown(("cover_classes", "types"))
    classes = tuple(_strings(fields, "cover_classes", min_len=1))
    _unique_field(fields, "cover_classes", classes)
    types_section = fields.sub("types")
    if not types_section.data:
        raise fields.error("types", "at least one terrain type")
    types = tuple(_load_type(types_section, str(name), classes) for name in types_section.data)
    _check_symbols(types_section, types)
    return TerrainRegistry(types, classes)


def _load_type(section: Fields, name: str, classes: tuple[str, ...]) -> TerrainType:
    f = section.sub(name)
    f.unknown(_TYPE_FIELDS)
    symbol = f.str("symbol", default="")
    if len(symbol) > 1:
        raise f.error("symbol", "a single character", symbol)
    return TerrainType(
        name=name, symbol=symbol,
        cover=f.choice("cover", classes, default=classes[0]),
        blocks_los=f.bool("blocks_los", default=False),
        passable=f.bool("passable", default=True),
        move_cost=f.int("move_cost", min=1, default=1),
        floors=f.int("floors", min=0, default=0),
        tags=frozenset(_strings(f, "tags", default=[])),
    )


def _check_symbols(section: Fields, types) -> None:
    owner: dict[str, str] = {}
    for t in types:
        if t.symbol and t.symbol in owner:
            raise section.error(f"{t.name}.symbol", f"a symbol not used by {owner[t.symbol]!r}", t.symbol)
        owner.setdefault(t.symbol, t.name)


def _strings(f: Fields, key: str, **kwargs) -> list[str]:
    values = f.list(key, **kwargs)
    for i, value in enumerate(values):
        if not isinstance(value, str):
            raise ScenarioError(f.file, f"{f.where(key)}[{i}]", "a string", value)
    return values


def _unique_field(f: Fields, key: str, values) -> None:
    seen = set()
    for value in values:
        if value in seen:
            raise f.error(key, "unique values", f"{value!r} twice")
        seen.add(value)
