"""render_mode="human" for both adapters: a pygame window showing the env's rgb picture.

pygame is imported only when a window is first opened: it is an optional extra (`pip install "rubble[human]"`),
and a missing pygame fails in one line naming it. Headless machines (CI) set SDL_VIDEODRIVER=dummy.
"""
from __future__ import annotations

import numpy as np

#: The install hint a missing pygame names.
EXTRA = 'render_mode="human" needs pygame: pip install "rubble[human]"'


def import_pygame():
    """pygame, or an ImportError in one line naming the extra that provides it."""
    try:
        import pygame
    except ImportError as error:
        raise ImportError(EXTRA) from error
    return pygame


class HumanWindow:
    """One window, opened on the first frame, resized to each frame, closed by `close`."""

    def __init__(self, title: str, fps: int) -> None:
        self.title, self.fps = title, fps
        self._pygame = import_pygame()      # fail at construction, not in the middle of an episode
        self._screen = self._clock = None

    def show(self, frame: np.ndarray) -> None:
        """Draw an (H, W, 3) uint8 frame and keep the window responsive."""
        pygame = self._pygame
        height, width = frame.shape[:2]
        if self._screen is None:
            pygame.init()
            pygame.display.set_caption(self.title)
            self._clock = pygame.time.Clock()
        if self._screen is None or self._screen.get_size() != (width, height):
            self._screen = pygame.display.set_mode((width, height))
        pygame.event.pump()
        # pygame surfaces are (W, H): transpose the picture's (H, W) axes.
        self._screen.blit(pygame.surfarray.make_surface(np.transpose(frame, (1, 0, 2))), (0, 0))
        pygame.display.flip()
        self._clock.tick(self.fps)

    def close(self) -> None:
        if self._screen is not None:
            self._pygame.display.quit()
            self._screen = None
