"""sim replay: one game in words, identical to that game of a batch run, ending with scores, tie-break and winner."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.api import core as api
from sim.cli.main import app
from sim.model.scenario import load

REPO = Path(__file__).resolve().parents[2]
TH = REPO / "scenarios" / "treasure_hunters"
MOOR4 = str(REPO / "scenarios" / "moor" / "4p.toml")
cli = CliRunner()


def test_count_says_singular_and_plural():
    from sim.model.words import count

    assert [count(0, "ghost"), count(1, "ghost"), count(2, "ghost")] == ["0 ghosts", "1 ghost", "2 ghosts"]
    assert count(1, "hunter player") == "1 hunter player" and count(3, "hunter player") == "3 hunter players"


@pytest.mark.kernel
@pytest.mark.parametrize(
    "scenario",
    [
        "treasure_hunters/basic-4p.toml",
        "treasure_hunters/head_haunter-5p.toml",
        "turnwall/4p.toml",
        "turnwall/mixed.toml",
        "galleon/4p.toml",
        "galleon/mixed.toml",
        "moor/4p.toml",
    ],
)
def test_replays_write_no_parenthesised_plurals(scenario):
    """'fights alone: ghost -> 1 ghost(s) removed', '(1 move(s) left)', '1 pirate(s) knocked down'."""
    sc = load(REPO / "scenarios" / scenario)
    text = "\n".join(line for g in range(4) for line in api.replay(sc, g))
    assert not re.search(r"\w\((s|es)\)", text), re.search(r".*\w\((s|es)\).*", text).group(0)


@pytest.mark.kernel
def test_replay_counts_read_as_english():
    text = "\n".join(line for g in range(4) for line in api.replay(load(TH / "basic-4p.toml"), g))
    assert "-> 1 ghost removed" in text and "-> 0 ghosts removed" in text


@pytest.mark.kernel
def test_replay_of_a_tied_moor_game_names_the_tie_break_and_the_points():
    r = cli.invoke(app, ["replay", MOOR4, "--game", "7"])
    assert r.exit_code == 0, r.output
    tail = r.stdout.strip().splitlines()[-3:]
    assert tail[0].endswith("seat 0 4 points, seat 1 4 points, seat 2 1 point, seat 3 3 points")
    assert tail[1].startswith("tie: seats 0 and 1 have 4 points each; tie-break (R17): most plank tiles")
    assert "still tied, so the tied player latest in turn order wins" in tail[1] and tail[1].endswith("seat 1")
    assert tail[2] == "winner: seat 1 (weighted)"


@pytest.mark.kernel
def test_tie_break_line_r17_most_planks_then_latest_in_turn_order_and_c9_shared():
    from sim.games.moor import tiebreak_lines

    assert tiebreak_lines([5, 3, 4], [0, 0, 0], 0, 0) == []  # one top score: nothing to settle
    # planks are by turn position: seat 2 started, so seat 2 is position 0 and seat 1 position 2; seat 2 holds more
    (line,) = tiebreak_lines([2, 6, 6], [2, 0, 1], 2, 0)
    assert line.endswith("most plank tiles wins (seat 2: 2, seat 1: 1): seat 2")
    (line,) = tiebreak_lines([2, 6, 6], [0, 1, 3], 2, 0)
    assert line.endswith("most plank tiles wins (seat 2: 0, seat 1: 3): seat 1")
    (line,) = tiebreak_lines([6, 6, 2], [1, 1, 0], 0, 0)
    assert "still tied" in line and line.endswith("(seat 0 started): seat 1")
    (line,) = tiebreak_lines([6, 6, 6], [0, 0, 0], 1, 1)
    assert line == "tie: seats 1, 2 and 0 have 6 points each; tiebreak = shared (C9): they share the win"


@pytest.mark.kernel
def test_tie_break_line_names_the_winner_of_every_tied_game():
    import numpy as np

    from kernels.moor import play
    from kernels.moor import rules as R
    from sim.games.moor import tiebreak_lines
    from sim.model.overrides import load

    sc = load(MOOR4, ())
    n, prm, ties = sc.players, sc.prm(), 0
    for g in range(60):
        tr = play.trace_game(np.uint64(sc.seed), np.uint64(0), g, n, prm, sc.sids(), sc.sparams(), 200_000)
        planks = [int(tr.state[R.S_HOLD + q * R.N_KINDS + R.K_PLANK]) for q in range(n)]
        lines = tiebreak_lines(tr.scores[:n], planks, g % n, int(prm[R.P_TIEBREAK]))
        if tr.status == 0 and lines:
            ties += 1
            assert tr.winners == 1 << int(lines[0].rsplit("seat ", 1)[1]), (g, lines)
    assert ties >= 3


@pytest.mark.kernel
def test_replay_without_game_says_it_plays_game_0():
    r = cli.invoke(app, ["replay", MOOR4])
    assert r.exit_code == 0, r.output
    assert r.stderr.startswith("note: no --game given, so this is game 0")
    assert r.stdout == cli.invoke(app, ["replay", MOOR4, "--game", "0"]).stdout
    assert "no --game" not in cli.invoke(app, ["replay", MOOR4, "--game", "0"]).stderr
