"""What the policy reads the observation with (the training config's `policy.extractor`).

  mlp   SB3's default: the flat observation straight into the dense layers of `policy.net_arch`.
  grid  GridExtractor: the board's planes, where the ruleset's contract declares them
        (`Ruleset.observation_layout`), through a small CNN, beside a dense layer over the rest of the vector.

The grid extractor is cheap on CPU by design: two 3x3 convolutions (16 then 32 channels; the second of stride 2
halves the board each way) and one dense layer from the flattened board, so that a Cityfight update costs no more
than the MLP's first layer over 10,767 inputs (2.8 M multiply-adds a sample for [256, ...]; the grid's about
2.2 M). Measured (README, "A policy that sees the board"): 27-32 % more Cityfight timesteps per CPU second than
the MLP, 6-26 % fewer on Rifles' six-square board.
The policy and value heads share it (SB3's default for on-policy algorithms). Its numpy twin, which actor.zip
plays, is agents/grid_actor.GridEncoder; `numpy_encoder()` hands the weights over.
"""
from __future__ import annotations

import numpy as np
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from agents.grid_actor import GridEncoder, conv_size
from agents.trained import ModelFileError
from envs.engine.contract import ObservationLayout

#: (output channels, stride) of each 3x3 convolution, zero padding 1
CONVOLUTIONS = ((16, 1), (32, 2))
#: the widths of the board's and the vector part's dense layers (their concatenation feeds policy.net_arch)
GRID_FEATURES, VECTOR_FEATURES = 128, 64


class GridExtractor(BaseFeaturesExtractor):
    """The board's planes through a CNN, the vector part through a dense layer, concatenated (board first)."""

    def __init__(self, observation_space, layout: dict) -> None:
        """`layout`: ObservationLayout.to_dict() of the ruleset (plain data, so SB3 can save it with the model)."""
        self.layout = ObservationLayout.from_dict(layout)
        if self.layout.planes is None:
            raise ValueError("the grid extractor needs a ruleset that declares planes (observation_layout)")
        super().__init__(observation_space, GRID_FEATURES + VECTOR_FEATURES)
        channels, height, width = self.layout.planes.shape
        self.shape = (channels, height, width)
        # Positions, not weights: kept out of the state dict (model.zip, the clone cache) and rebuilt from the layout.
        self.register_buffer("plane_index", torch.as_tensor(self.layout.plane_indices().reshape(-1)), persistent=False)
        self.register_buffer("vector_index", torch.as_tensor(self.layout.vector_indices().copy()), persistent=False)
        layers: list[nn.Module] = []
        for out, stride in CONVOLUTIONS:
            layers += [nn.Conv2d(channels, out, 3, stride=stride, padding=1), nn.ReLU()]
            channels, height, width = out, conv_size(height, stride), conv_size(width, stride)
        self.cnn = nn.Sequential(*layers, nn.Flatten())
        self.board = nn.Sequential(nn.Linear(channels * height * width, GRID_FEATURES), nn.ReLU())
        self.rest = nn.Sequential(nn.Linear(self.vector_index.numel(), VECTOR_FEATURES), nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        planes = observations.index_select(1, self.plane_index).view(-1, *self.shape)
        vector = observations.index_select(1, self.vector_index)
        return torch.cat([self.board(self.cnn(planes)), self.rest(vector)], dim=1)

    def numpy_encoder(self) -> GridEncoder:
        """The same function in numpy (agents/grid_actor.py), with copies of the current weights."""
        def pair(layer: nn.Module) -> tuple[np.ndarray, np.ndarray]:
            return layer.weight.detach().numpy().copy(), layer.bias.detach().numpy().copy()
        convs = [pair(m) for m in self.cnn if isinstance(m, nn.Conv2d)]
        return GridEncoder(self.layout, convs, [stride for _, stride in CONVOLUTIONS], pair(self.board[0]),
                           pair(self.rest[0]))

    def load_numpy_encoder(self, encoder: GridEncoder, path) -> None:
        """The inverse of numpy_encoder: an actor.zip's encoder weights into this extractor (a warm start,
        training/learn/warm_start.py); ModelFileError naming `path` if its convolutions or layers differ."""
        modules = [m for m in self.cnn if isinstance(m, nn.Conv2d)] + [self.board[0], self.rest[0]]
        pairs = [*encoder.convs, encoder.grid, encoder.vector]
        strides = [stride for _, stride in CONVOLUTIONS]
        shapes = [tuple(m.weight.shape) for m in modules]
        if [w.shape for w, _ in pairs] != shapes or list(encoder.strides) != strides:
            raise ModelFileError(f"{path}: its grid encoder has layers {[w.shape for w, _ in pairs]} and strides "
                                 f"{list(encoder.strides)}; this extractor has {shapes} and {strides}")
        with torch.no_grad():
            for module, (weights, bias) in zip(modules, pairs):
                module.weight.copy_(torch.as_tensor(weights))
                module.bias.copy_(torch.as_tensor(bias))


def policy_kwargs(config, ruleset) -> dict:
    """MaskablePPO's policy_kwargs for a training config (its policy section) on `ruleset`."""
    from .config import activation_fn

    kwargs = {"net_arch": list(config.net_arch), "activation_fn": activation_fn(config.activation)}
    if config.extractor == "grid":
        kwargs["features_extractor_class"] = GridExtractor
        kwargs["features_extractor_kwargs"] = {"layout": ruleset.observation_layout().to_dict()}
    return kwargs
