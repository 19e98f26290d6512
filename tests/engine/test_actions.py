"""ActionCodec: structured actions <-> flat indices, errors, masks."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from envs.engine.actions import ActionCodec


@pytest.fixture
def codec() -> ActionCodec:
    return ActionCodec([("end_phase", ()), ("move", (6, 4, 2)), ("fire", (3, 5)), ("rally", (7,))])


def test_size_is_sum_of_family_sizes(codec):
    assert codec.size == 1 + 48 + 15 + 7


def test_round_trip_over_all_indices(codec):
    for action in range(codec.size):
        name, args = codec.decode(action)
        assert codec.encode(name, *args) == action


def test_families_are_consecutive_and_row_major(codec):
    assert codec.encode("end_phase") == 0
    assert codec.encode("move", 0, 0, 0) == codec.offset("move") == 1
    assert codec.encode("move", 0, 0, 1) == 2
    assert codec.encode("move", 1, 0, 0) == 1 + 8
    assert codec.decode(codec.size - 1) == ("rally", (6,))


def test_decode_accepts_numpy_integers(codec):
    assert codec.decode(np.int64(3)) == codec.decode(3)


@pytest.mark.parametrize("args", [(0, 0), (0, 0, 0, 0), (6, 0, 0), (-1, 0, 0), (0, 4, 0), (1.5, 0, 0)])
def test_encode_rejects_bad_arguments(codec, args):
    with pytest.raises(ValueError, match="move"):
        codec.encode("move", *args)


def test_encode_rejects_a_whole_float_that_equals_a_valid_argument(codec):
    # (1.0, 0, 0) == (1, 0, 0) as a key: encode's lookup must still refuse what is no integer
    with pytest.raises(ValueError, match="argument 1.0 is not an integer"):
        codec.encode("move", 1.0, 0, 0)


def test_encode_takes_numpy_integers_and_bools_as_before(codec):
    assert codec.encode("move", np.int64(1), np.int8(2), True) == codec.encode("move", 1, 2, 1) == 1 + 8 + 4 + 1


def test_encode_unknown_family_raises(codec):
    with pytest.raises(LookupError):
        codec.encode("teleport", 1)


@pytest.mark.parametrize("action", [-1, 71, 1000])
def test_decode_rejects_out_of_range(codec, action):
    with pytest.raises(ValueError, match="outside"):
        codec.decode(action)


def test_duplicate_family_raises():
    with pytest.raises(ValueError, match="declared twice"):
        ActionCodec([("move", (2,)), ("move", (3,))])


def test_mask_sets_exactly_the_legal_indices(codec):
    legal = {0, 5, codec.encode("fire", 2, 4)}
    mask = codec.mask(legal)
    assert mask.dtype == bool and mask.shape == (codec.size,)
    assert set(np.flatnonzero(mask)) == legal


def test_mask_of_nothing_is_all_false(codec):
    assert not codec.mask([]).any()


@pytest.mark.parametrize("legal", [[-1], [71], [0.5]])
def test_mask_rejects_indices_outside_the_codec(codec, legal):
    # A negative index would otherwise wrap round and mark the last action legal.
    with pytest.raises(ValueError, match="legal actions"):
        codec.mask(legal)


def test_table_gives_encode_of_every_argument_tuple(codec):
    for name, family in codec.families.items():
        if not family.shape:
            continue
        table = codec.table(name)
        for args in itertools.product(*(range(d) for d in family.shape)):
            entry = table
            for arg in args:
                entry = entry[arg]
            assert entry == codec.encode(name, *args), (name, args)
