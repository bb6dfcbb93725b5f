"""Board facts the pages draw with, for the layers above the games (only the play and games layers import
`kernels`): the board-file reader the games' kernels share (`kernels.boardfile`: the same reading and the same
one-line errors) and the constants of Treasure Hunters' house and Ghostly Galleon's bay, each imported from its
game's board module only when asked for. Plain Python: importing this compiles no kernel. (An underscore module:
not a game, so `sim.model.registry.names` does not list it.)"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from kernels.boardfile import BoardError, read_toml

_FROM = {  # constant -> the board module that defines it
    "N_ROOMS": "kernels.treasure_hunters.board",
    "ROOM_LETTERS": "kernels.treasure_hunters.board",
    "KINDS": "kernels.galleon.board",
    "QUARTERS": "kernels.galleon.board",
    "SHIP_KINDS": "kernels.galleon.board",
}

__all__ = ["BoardError", "read_toml", *_FROM]


def __getattr__(name: str) -> Any:
    """A game's board constant, imported from its board module on first use (PEP 562)."""
    if name not in _FROM:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(_FROM[name]), name)
