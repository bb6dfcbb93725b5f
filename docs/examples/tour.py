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
# The same steps as the README's five-minute tour, through the Python functions the `sim` command calls: load a
# scenario, play it, read the numbers, change a rule, compare two variants on common random numbers and sweep a
# parameter. A few thousand games each, so the whole notebook runs in well under a minute once the Moor kernel is
# compiled. Open it in Jupyter with jupytext (`jupytext --to notebook docs/examples/tour.py`), or run it as a
# script: `.venv/bin/python docs/examples/tour.py`. Everything goes to a temporary folder, not to `reports/`.

# %%
import tempfile
from pathlib import Path

from sim.api import compare as api_compare
from sim.api import core as api
from sim.api import sweep as api_sweep
from sim.model import overrides, scenario
from sim.play.distributed import InProcess

REPO = Path(__file__).resolve().parents[2] if "__file__" in globals() else Path.cwd()
MOOR = REPO / "scenarios" / "moor" / "4p.toml"
OUT = Path(tempfile.mkdtemp(prefix="ghost-sim-tour-"))
GAMES = 4000

# %% [markdown]
# ## Run a scenario
#
# `scenario.load` reads and validates a scenario file (a bad file raises `ScenarioError` with one line naming the
# field). `run_scenario` plays it and writes the report folder; it returns the summary, the dict that is
# `summary.json`.

# %%
sc = scenario.load(MOOR)
print(sc.name, sc.game, sc.players, "players:", [s.strategy for s in sc.seats])
summary, folder = api.run_scenario(sc, games=GAMES, out_dir=OUT / "moor-4p")
fp = summary["first_player"]
lo, hi = fp["win"]["ci95"]
print(f"start player wins {fp['win']['rate']:.1%} [{lo:.1%}, {hi:.1%}] against a fair {fp['fair_share']:.0%}")
for seat in summary["seats"]:
    print(f"seat {seat['seat']} ({seat['strategy']}): {seat['win']['rate']:.1%}")
print("report:", folder / "summary.html")

# %% [markdown]
# ## Change a rule: the `--set` of the command line
#
# `overrides.load` applies `(name, value)` pairs before the scenario is validated, exactly as `--set NAME=VALUE`
# does; the variant gets its own name (and so its own report folder).

# %%
longer = overrides.load(MOOR, [("track_len", 40), ("seats.3.strategy", "runner")])
print(longer.name, longer.params["track_len"], [s.strategy for s in longer.seats])

# %% [markdown]
# ## Compare two scenarios on common random numbers
#
# Both play the same seeds and game indices; each shared measure gets both values and B − A with its paired 95%
# interval and a Holm-corrected verdict. `write_comparison` writes compare.html, compare.md and compare.json.

# %%
shared = overrides.load(MOOR, [("tiebreak", "shared")])
res = api_compare.compare(sc, shared, games=GAMES)
for row in res["metrics"][:6]:
    lo, hi = row["diff_ci95"]
    verdict = "real" if row["name"] in res["significant"] else "within chance"
    print(
        f"{row['label']}: {row['a']:.4g} -> {row['b']:.4g}, B - A {row['diff']:+.4g} [{lo:+.4g}, {hi:+.4g}] {verdict}"
    )
print("comparison:", api.write_comparison(res, OUT / "compare"))

# %% [markdown]
# ## Sweep a parameter
#
# `sweep.build` takes the scenario file and `--set`-style axes (`NAME=VALUES`: a list or a range); `run_sweep`
# plays every point (here in this process) and writes sweep.parquet, sweep.json and sweep.html.

# %%
sw = api_sweep.build(MOOR, ["track_len=24,30,36"], games=GAMES // 2, target="first_player_advantage=0")
doc, sweep_folder, played = api_sweep.run_sweep(sw, InProcess(), out=OUT / "sweep")
for point in doc["points"]:
    print(point["labels"], point["measures"]["first_player_advantage"]["value"])
print("sweep:", sweep_folder / "sweep.html")
