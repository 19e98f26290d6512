"""The grid encoder of a trained actor in plain numpy: what `policy.extractor: grid` (training/learn/extractors.py) learns.

The observation splits by the ruleset's declared layout (envs.engine.contract.ObservationLayout) into the board's
planes and the vector part. The planes go through 3x3 convolutions (zero padding 1, each with its stride, ReLU),
are flattened channel by channel as torch flattens them, and a dense layer (ReLU) makes the board's features; the
vector part goes through its own dense layer (ReLU); the two are concatenated, board first. A convolution here is
a matrix product over the image's 3x3 patches (im2col), so an actor.zip plays without torch.

In actor.zip (agents/trained.py) the encoder's arrays sit beside the head's w0/b0...: conv0_w (out, in, 3, 3),
conv0_b, conv1_w, conv1_b, ..., grid_w/grid_b, vector_w/vector_b; the metadata names `extractor: grid`, the layout
and the convolutions' strides.
"""
from __future__ import annotations

import numpy as np

from envs.engine.contract import ObservationLayout

KERNEL = 3
#: the names of the encoder's arrays in actor.zip besides the convolutions'
DENSE = ("grid", "vector")


class EncoderFileError(ValueError):
    """An encoder's arrays or metadata that do not fit together; the message names what was expected."""


def relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


#: OpenBLAS runs a matrix product on several threads from this many multiply-adds on (65536 x its default
#: GEMM_MULTITHREAD_THRESHOLD of 4); on a machine whose cores are busy (training beside play) those threads wait
#: for each other: a Cityfight convolution measured 18 ms so against 0.06 ms on one thread.
THREADED_FROM = 65536 * 4


def matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b, in column blocks small enough that BLAS keeps each on one thread (THREADED_FROM): the same sums."""
    step = max(1, (THREADED_FROM - 1) // (a.shape[0] * a.shape[1]))
    if b.shape[1] <= step:
        return a @ b
    return np.concatenate([a @ b[:, i:i + step] for i in range(0, b.shape[1], step)], axis=1)


def patch_index(channels: int, height: int, width: int, stride: int) -> np.ndarray:
    """(channels * 9, out_height * out_width) positions, in a (channels, height, width) image flattened with one
    zero appended, of the 3x3 patches a torch.nn.Conv2d(channels, out, 3, stride, padding=1) multiplies: the im2col
    matrix is then one gather (`image.ravel()` + [0], indexed), and the convolution one matrix product."""
    rows, cols = conv_size(height, stride), conv_size(width, stride)
    c, ky, kx, oy, ox = np.ogrid[:channels, :KERNEL, :KERNEL, :rows, :cols]
    y, x = oy * stride + ky - 1, ox * stride + kx - 1                  # padding 1: the patch starts one square out
    inside = (y >= 0) & (y < height) & (x >= 0) & (x < width)
    index = np.where(inside, c * height * width + np.clip(y, 0, height - 1) * width + np.clip(x, 0, width - 1),
                     channels * height * width)                        # outside the image: the appended zero
    return index.reshape(channels * KERNEL * KERNEL, rows * cols)


def conv3x3(image: np.ndarray, weights: np.ndarray, bias: np.ndarray, stride: int) -> np.ndarray:
    """torch.nn.Conv2d(in, out, 3, stride, padding=1) of one (in, H, W) image (the reference patch_index follows)."""
    channels, height, width = image.shape
    flat = np.append(image.reshape(-1), np.float32(0))
    columns = flat[patch_index(channels, height, width, stride)]
    out = matmul(weights.reshape(weights.shape[0], -1), columns) + bias[:, None]
    return out.reshape(weights.shape[0], conv_size(height, stride), conv_size(width, stride))


def conv_size(size: int, stride: int) -> int:
    """The side of a padded 3x3 convolution's output (as torch computes it)."""
    return (size + 2 - KERNEL) // stride + 1


class GridEncoder:
    """The observation -> features part of a grid actor."""

    def __init__(self, layout: ObservationLayout, convs: list[tuple[np.ndarray, np.ndarray]], strides: list[int],
                 grid: tuple[np.ndarray, np.ndarray], vector: tuple[np.ndarray, np.ndarray]) -> None:
        self.layout, self.convs, self.strides, self.grid, self.vector = layout, convs, strides, grid, vector
        self.vector_index = layout.vector_indices()
        self.features = grid[0].shape[0] + vector[0].shape[0]
        # Each convolution's im2col gather, built once; the first reads the observation itself (its planes'
        # positions from the layout, the appended zero at `layout.size`), so the board is never copied out first.
        self.gathers, self.kernels = [], [w.reshape(w.shape[0], -1) for w, _ in convs]
        shape = layout.planes.shape
        for (w, _), stride in zip(convs, strides):
            self.gathers.append(patch_index(*shape, stride))
            shape = (w.shape[0], conv_size(shape[1], stride), conv_size(shape[2], stride))
        planes = np.append(layout.plane_indices().reshape(-1), layout.size)
        self.gathers[0] = planes[self.gathers[0]]

    def __call__(self, observation: np.ndarray) -> np.ndarray:
        x = np.asarray(observation, np.float32)
        image = np.append(x, np.float32(0))
        for gather, kernel, (_, b) in zip(self.gathers, self.kernels, self.convs):
            image = np.append(relu(matmul(kernel, image[gather]) + b[:, None]).reshape(-1), np.float32(0))
        board = relu(self.grid[0] @ image[:-1] + self.grid[1])
        rest = relu(self.vector[0] @ x[self.vector_index] + self.vector[1])
        return np.concatenate([board, rest])

    # actor.zip ------------------------------------------------------------------------------------------------------
    def arrays(self) -> dict[str, np.ndarray]:
        """The encoder's weights by their names in actor.zip (float32; the file stores them as float16)."""
        out = {}
        for i, (w, b) in enumerate(self.convs):
            out[f"conv{i}_w"], out[f"conv{i}_b"] = w, b
        for name, (w, b) in zip(DENSE, (self.grid, self.vector)):
            out[f"{name}_w"], out[f"{name}_b"] = w, b
        return out

    def meta(self) -> dict:
        return {"extractor": "grid", "layout": self.layout.to_dict(), "conv_strides": list(self.strides)}

    @classmethod
    def from_arrays(cls, meta: dict, arrays: dict[str, np.ndarray]) -> GridEncoder:
        """The encoder from actor.zip's metadata and arrays (its own are removed from `arrays`); EncoderFileError
        naming the first thing that does not fit."""
        layout = _layout(meta)
        strides = meta.get("conv_strides")
        if not isinstance(strides, list) or not strides or not all(isinstance(s, int) and s >= 1 for s in strides):
            raise EncoderFileError(f"conv_strides must be a list of whole numbers >= 1; got {strides!r}")
        channels, height, width = layout.planes.shape
        convs = []
        for i, stride in enumerate(strides):
            w, b = _pop(arrays, f"conv{i}")
            if w.ndim != 4 or w.shape[1:] != (channels, KERNEL, KERNEL) or b.shape != (w.shape[0],):
                raise EncoderFileError(f"conv{i} must be weights (out, {channels}, 3, 3) and bias (out,); "
                                       f"got {w.shape} and {b.shape}")
            convs.append((w, b))
            channels, height, width = w.shape[0], conv_size(height, stride), conv_size(width, stride)
        grid = _dense(arrays, "grid", channels * height * width)
        vector = _dense(arrays, "vector", layout.vector_indices().size)
        return cls(layout, convs, strides, grid, vector)


def _layout(meta: dict) -> ObservationLayout:
    try:
        layout = ObservationLayout.from_dict(meta["layout"])
    except (KeyError, TypeError, ValueError) as exc:
        raise EncoderFileError(f"layout is not an observation layout ({type(exc).__name__}: {exc})") from None
    if layout.planes is None:
        raise EncoderFileError("layout declares no planes for the grid encoder")
    return layout


def _pop(arrays: dict, name: str) -> tuple[np.ndarray, np.ndarray]:
    if f"{name}_w" not in arrays or f"{name}_b" not in arrays:
        raise EncoderFileError(f"{name}_w and {name}_b missing")
    w, b = arrays.pop(f"{name}_w"), arrays.pop(f"{name}_b")
    if w.dtype.kind != "f" or b.dtype.kind != "f":
        raise EncoderFileError(f"{name} must hold floats; got {w.dtype} and {b.dtype}")
    if not (np.isfinite(w).all() and np.isfinite(b).all()):
        raise EncoderFileError(f"{name} holds NaN or infinite weights")
    return w.astype(np.float32), b.astype(np.float32)


def _dense(arrays: dict, name: str, inputs: int) -> tuple[np.ndarray, np.ndarray]:
    w, b = _pop(arrays, name)
    if w.ndim != 2 or w.shape[1] != inputs or b.shape != (w.shape[0],):
        raise EncoderFileError(f"{name} must be weights (out, {inputs}) and bias (out,); got {w.shape} and {b.shape}")
    return w, b
