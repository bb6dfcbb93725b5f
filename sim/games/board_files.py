"""The board-file reader the games' kernels share (`kernels.boardfile`), for the layers above the games: the pages
draw a board file with the same reading and the same one-line errors as the kernels load it with, and import it
from here (only the play and games layers import `kernels`)."""

from __future__ import annotations

from kernels.boardfile import BoardError, read_toml

__all__ = ["BoardError", "read_toml"]
