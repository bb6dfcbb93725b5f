"""A flat vector's layout declared once, field by field: the offsets follow from the sizes.

A game keeps its state (and its parameters) in one flat integer vector read at named offsets. Instead of offsets
written by hand (``S_GHOSTS = 64``, ``S_HAUNTED = S_GHOSTS + N_ROOMS``, ...), the rules module declares the fields
in order with their sizes, and each declaration returns its offset as a plain ``int``:

    _S = Layout("state")
    S_PHASE = _S.field()  # the current phase
    S_DIE = _S.field(2)  # [2] fight dice
    _S.reserve(4)  # spare slots (kept free so the offsets after them stay where they were)
    S_GHOSTS = _S.field(N_ROOMS)  # [12] ghosts per room
    S_SIZE = _S.end()

The offsets are computed once, at import, into module-level integer constants: Numba freezes them into the
compiled code exactly as it froze the hand-written numbers, so a kernel compiles to the same machine code. Fields
follow each other without overlap or gap; a gap is declared (`reserve`) and so visible. Plain Python (no Numba):
the kernels never call it, only the module bodies that declare their vectors.
"""

from __future__ import annotations

from typing import NamedTuple


class Field(NamedTuple):
    """One declared field: its first index, its length, and whether it is spare (``reserve``: no name, unused)."""

    offset: int
    size: int
    spare: bool


class Layout:
    """The fields of one flat vector in declaration order (`field`, `reserve`), closed by `end`.

    Raises `ValueError` for a size below 1 and `RuntimeError` for a declaration after `end`: a layout is built once,
    at import, and never changes after its size has been read."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.fields: list[Field] = []
        self.size = 0
        self.closed = False

    def _add(self, size: int, spare: bool) -> int:
        if self.closed:
            raise RuntimeError(f"layout {self.name!r}: a field declared after end() (its size was already read)")
        if size < 1:
            raise ValueError(f"layout {self.name!r}: field size must be at least 1, got {size}")
        offset = self.size
        self.fields.append(Field(offset, size, spare))
        self.size += size
        return offset

    def field(self, size: int = 1) -> int:
        """Declare the next field, ``size`` entries long; returns its offset (an int index into the vector)."""
        return self._add(size, False)

    def reserve(self, size: int) -> None:
        """Declare ``size`` spare entries that no rule reads or writes (a gap made visible)."""
        self._add(size, True)

    def end(self) -> int:
        """Close the layout; returns the vector's length (every field and spare entry)."""
        self.closed = True
        return self.size

    def problems(self, names: dict[str, int], size_name: str) -> list[str]:
        """What breaks the layout's contract, one line each (empty when it holds), given the module's offset
        constants ``names`` ({"S_PHASE": 0, ...}, the vector's length under ``size_name`` among them): the fields
        tile 0..size without overlap or gap; every constant is the offset of exactly one named field, the length
        constant is the size; every named field has a constant."""
        out = []
        at = 0
        for f in self.fields:
            if f.offset != at:
                out.append(f"{self.name}: field at {f.offset} should start at {at} (overlap or gap)")
            at = f.offset + f.size
        if at != self.size:
            out.append(f"{self.name}: fields end at {at}, size is {self.size}")
        if not self.closed:
            out.append(f"{self.name}: end() never called")
        if names.get(size_name) != self.size:
            out.append(f"{self.name}: {size_name} is {names.get(size_name)}, the layout's size {self.size}")
        starts = {f.offset: f for f in self.fields if not f.spare}
        seen: dict[int, str] = {}
        for name, v in names.items():
            if name == size_name:
                continue
            if v not in starts:
                out.append(f"{self.name}: {name} = {v} is not the offset of a declared field")
            elif v in seen:
                out.append(f"{self.name}: {name} and {seen[v]} name the same field at {v}")
            else:
                seen[v] = name
        for v in starts:
            if v not in seen:
                out.append(f"{self.name}: the field at {v} has no name")
        return out
