"""Dice Race: a tiny fifth game that lives in tests/ alone (tests/sim/test_new_game.py registers it), the proof that
a game is a kernel plus one GameSpec and nothing in sim/ or kernels/ names it."""
