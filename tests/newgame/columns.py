"""Dice Race: the names of the per-game counters `play_batch` writes to extra[g, :], in column order (no imports,
so the spec reads them without compiling the kernel)."""

EXTRA_COLUMNS = ("first_seat", "decisions", "top_rolls")
