# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
# ---

# %% [markdown]
# # A tour of ghost-sim from Python
#
# The same steps as the README's five-minute tour, through the typed Python API (`import sim`): load a scenario,
# play it, read the numbers as Polars frames, change a rule, compare two variants on common random numbers, sweep a
# parameter and check a scenario against its committed baseline. A few thousand games each, so the whole notebook
# runs in well under a minute once the Moor kernel is compiled. Open it in Jupyter with jupytext (`jupytext --to
# notebook docs/examples/tour.py`), or run it as a script: `.venv/bin/python docs/examples/tour.py`. Everything
# goes to a temporary folder, not to `reports/`.

# %%
import tempfile
from pathlib import Path

import sim

# the project's scenarios, wherever the notebook is opened from (sim knows its own checkout)
MOOR = sim.SCENARIOS / "moor" / "4p.toml"
OUT = Path(tempfile.mkdtemp(prefix="ghost-sim-tour-"))
GAMES = 4000

# %% [markdown]
# ## Run a scenario
#
# `sim.load` reads and validates a scenario file (a bad file raises `sim.ScenarioError`, whose message is one line
# naming the field). `sim.run` plays it and returns a frozen `sim.Result`: `measures` is a Polars frame of every
# measure with its 95% interval, `summary` the headline rows, `verdicts` the report's sentences.

# %%
sc = sim.load(MOOR)
print(sc.name, sc.game, sc.players, "players:", [s.strategy for s in sc.seats])
r = sim.run(sc, games=GAMES)
print(r.summary.select("label", "value", "ci_low", "ci_high", "unit"))
for line in r.verdicts:
    print("-", line)
folder = r.write(OUT / "moor-4p")  # the folder `sim run` writes: summary.html, summary.json, ...
print("report:", folder / "summary.html")

# %% [markdown]
# ## Bad input is one exception family
#
# Every error of bad input is a `sim.SimError` naming the field, what is allowed and what was given, in Python's
# words (`set: players=6: ...`, `games=0 is out of range`): the command line says the same with its option names.
# An unknown keyword is one too (`sim.OptionError`), not a bare `TypeError`.

# %%
try:
    sim.load(MOOR, set={"players": 6})
except sim.SimError as e:
    print(type(e).__name__, "|", e.field, "|", e.allowed, "|", e.given)
    print(e)
try:
    sim.run(MOOR, gamez=10)
except sim.SimError as e:
    print(type(e).__name__, "|", e)

# %% [markdown]
# ## Change a rule: the `--set` of the command line
#
# `set` applies overrides before the scenario is validated, exactly as `--set NAME=VALUE` does; the variant gets
# its own name (and so its own report folder).

# %%
longer = sim.load(MOOR, set={"track_len": 40, "seats.3.strategy": "runner"})
print(longer.name, longer.params["track_len"], [s.strategy for s in longer.seats])

# %% [markdown]
# ## Compare two scenarios on common random numbers
#
# Both play the same seeds and game indices; each shared measure gets both values and B − A with its paired 95%
# interval and a Holm-corrected verdict.

# %%
c = sim.compare(MOOR, set_b={"tiebreak": "shared"}, games=GAMES)
print(c.metrics.head(6))
print(c.verdicts[0])
print("comparison:", c.write(OUT / "compare"))

# %% [markdown]
# ## Sweep a parameter
#
# `sim.sweep` takes the scenario file and the values of each swept parameter (a list or a range); every point
# plays the same dice, and the result says which settings differ from the scenario's own after a correction for
# testing many points.

# %%
s = sim.sweep(
    MOOR, set={"track_len": [24, 30, 36]}, games=GAMES // 2, target="first_player_advantage=0", out=OUT / "sweep"
)
print(s.points)
print("target:", s.target)

# %% [markdown]
# ## A regression check
#
# `sim.check` replays a scenario's committed baseline (the exact tier: identical integers, or a named regression).

# %%
k = sim.check([MOOR], tier="exact")
print("ok:", k.ok)
print(k.scenarios)
