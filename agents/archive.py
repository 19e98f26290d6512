"""Model archives (actor.zip, model.zip) checked before a byte of them is inflated.

A zip's central directory declares every member's name and sizes; inflating is what costs memory and time (a 1.35 MB
actor.zip of zeros inflates to over a gigabyte). So a loader first checks that directory against the `ZipLimits` of
its kind of file: how many members, which names, how large each may be, how far each may have been compressed. A
member is then read no further than its declared size (zipfile stops there), and an npy member's header must
declare exactly that size (`check_npy_header`), so that no shape it claims makes numpy allocate more.

    infos = check_zip(path, ZipLimits(names=re.compile(r"data|.*\\.pth"), members=16, size=256 << 20))

Every refusal is a ModelFileError in one line naming the file, the member and what was expected.
"""
from __future__ import annotations

import math
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np


class ModelFileError(ValueError):
    """A model file that is refused; the message is one line naming the file and what was expected."""


#: A member smaller than this may compress as far as it likes (a zero bias, a short JSON): too small to matter.
RATIO_FROM = 1 << 20
#: Trained float16 weights deflate by about 1.1:1 (the most of every actor under results/); zeros by 1000:1.
MAX_RATIO = 20.0


@dataclass(frozen=True)
class ZipLimits:
    """What an archive may hold: `members` at most, each named by `names` (a full match), each declaring at most
    `size` bytes (or its own bound in `sizes`, by name), all together at most `total` (default: `size` times
    `members`), and none over RATIO_FROM bytes compressed more than `ratio` to 1."""

    names: re.Pattern
    members: int
    size: int
    total: int | None = None
    ratio: float = MAX_RATIO
    sizes: dict[str, int] = field(default_factory=dict)


def check_zip(path, limits: ZipLimits) -> list[zipfile.ZipInfo]:
    """The archive's members, checked against `limits` from its central directory alone; ModelFileError if not."""
    path = Path(path)
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
    except (OSError, zipfile.BadZipFile) as exc:
        raise ModelFileError(f"{path}: unreadable zip archive ({exc})") from None
    if len(infos) > limits.members:
        raise ModelFileError(f"{path}: {len(infos)} members; expected at most {limits.members}")
    seen = set()
    for info in infos:
        check_member(path, info, limits, seen)
    total = sum(info.file_size for info in infos)
    allowed = limits.total if limits.total is not None else limits.size * limits.members
    if total > allowed:
        raise ModelFileError(f"{path}: members declare {total} bytes in all; expected at most {allowed}")
    return infos


def check_member(path: Path, info: zipfile.ZipInfo, limits: ZipLimits, seen: set) -> None:
    """One member: a known name, not twice, within its size and compression ratio."""
    name = info.filename
    if not limits.names.fullmatch(name):
        raise ModelFileError(f"{path}: member {name[:80]!r} unexpected; expected names matching {limits.names.pattern}")
    if name in seen:                        # zipfile reads the last of two, a checker might have read the first
        raise ModelFileError(f"{path}: member {name!r} appears twice; expected each once")
    seen.add(name)
    size = limits.sizes.get(name, limits.size)
    if info.file_size > size:
        raise ModelFileError(f"{path}: member {name!r} declares {info.file_size} bytes; expected at most {size}")
    ratio = info.file_size / max(info.compress_size, 1)
    if info.file_size > RATIO_FROM and ratio > limits.ratio:
        raise ModelFileError(f"{path}: member {name!r} inflates {ratio:.0f}:1 ({info.compress_size} -> "
                             f"{info.file_size} bytes); expected at most {limits.ratio:.0f}:1")


#: the npy format versions numpy writes, and their header readers
NPY_HEADERS = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}


def check_npy_header(path, z: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
    """An npy member whose header declares an array of exactly the member's declared size, of plain numbers (numpy
    would otherwise allocate what the header claims before finding the data short)."""
    with z.open(info) as f:
        try:
            read_header = NPY_HEADERS.get(np.lib.format.read_magic(f))
            if read_header is None:
                raise ValueError("an npy format version other than 1.0 or 2.0")
            shape, _, dtype = read_header(f)
        except (ValueError, OSError, EOFError) as exc:
            raise ModelFileError(f"{path}: member {info.filename!r} is not an npy array ({exc})") from None
        header = f.tell()
    if dtype.hasobject:
        raise ModelFileError(f"{path}: member {info.filename!r} holds Python objects, which are never loaded")
    data = math.prod(shape) * dtype.itemsize          # Python ints: a claimed shape cannot overflow
    if header + data != info.file_size:
        raise ModelFileError(f"{path}: member {info.filename!r} declares a {dtype} array of shape {shape} "
                             f"({data} bytes); expected one of the member's {info.file_size - header} bytes")
