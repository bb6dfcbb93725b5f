"""Board facts the pages draw with, for the layers above the games (only the play and games layers import
`kernels`): the board-file reader the games' kernels share (`kernels.boardfile`: the same reading and the same
one-line errors) and the constants of Treasure Hunters' house and Ghostly Galleon's bay. Plain Python: importing this
compiles no kernel. (An underscore module: not a game, so `sim.model.registry.names` does not list it.)"""

from __future__ import annotations

from kernels.boardfile import BoardError, read_toml
from kernels.galleon.board import KINDS, QUARTERS, SHIP_KINDS
from kernels.treasure_hunters.board import N_ROOMS, ROOM_LETTERS

__all__ = ["BoardError", "read_toml", "KINDS", "QUARTERS", "SHIP_KINDS", "N_ROOMS", "ROOM_LETTERS"]
