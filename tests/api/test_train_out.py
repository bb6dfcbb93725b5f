"""`sim train --out` takes a new, empty or training folder only (found by a fresh user: it wrote into scenarios/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.api.train import TrainError, prepare_out


def test_a_folder_of_other_things_is_refused_and_left_as_it_was(tmp_path):
    (tmp_path / "4p.toml").write_text("x")
    with pytest.raises(TrainError, match=r"^--out: .* exists and is not a training folder \(it holds 4p.toml\)"):
        prepare_out(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["4p.toml"]


def test_a_file_or_a_path_through_a_file_is_one_line(tmp_path):
    f = tmp_path / "README.md"
    f.write_text("x")
    with pytest.raises(TrainError, match=r"^--out: .*README.md is a file; give a folder"):
        prepare_out(f)
    with pytest.raises(TrainError, match=r"^--out: .*README.md is a file, not a folder"):
        prepare_out(f / "sub")


def test_a_new_or_a_training_folder_is_taken(tmp_path):
    prepare_out(tmp_path / "new")
    assert (tmp_path / "new" / "checkpoint").is_dir()
    (tmp_path / "new" / "report.md").write_text("x")
    prepare_out(tmp_path / "new")  # a training folder: resumed


def test_an_unwritable_place_is_one_line():
    with pytest.raises(TrainError, match=r"^--out: cannot write in /proc/x"):
        prepare_out(Path("/proc/x"))


def test_the_command_line_refuses_a_file_as_out_with_exit_3_as_every_command_does(tmp_path):
    from typer.testing import CliRunner

    from sim.cli.main import app

    f = tmp_path / "f"
    f.write_text("x")
    for argv in (
        ["train", "moor", "--out", str(f)],
        ["run", "scenarios/moor/4p.toml", "--games", "8", "--out", str(f)],
    ):
        r = CliRunner().invoke(app, argv)
        assert r.exit_code == 3 and "--out: " in r.output and "is a file" in r.output, argv


@pytest.mark.parametrize(
    ("state", "said"),
    [
        ("{}", r"state\.json: no run's settings"),
        ("not json", r"state\.json: Expecting value"),
        (None, r"iter-0\.npz: not a decisions file sim train wrote, or cut short"),  # its decisions cut to nothing
        ("strength", r"state\.json: an iteration's figures are missing"),  # a figure the report reads taken out
    ],
)
def test_a_damaged_checkpoint_is_one_line_naming_it(state, said, tmp_path):
    """A fresh user's edited state.json gave a traceback and an emptied npz only "Aborted." (click reads an
    EOFError as Ctrl-D): now one line saying the checkpoint is damaged and what to do, before any game."""
    import json
    from dataclasses import asdict

    from sim.api import train as T

    cfg = T.TrainConfig("moor", "player", 1, 2, 2, 4, 100, 1e-3)
    ck = tmp_path / "t" / "checkpoint"
    ck.mkdir(parents=True)
    if state in (None, "strength"):
        _, lr = T.learner_of("moor", "player")
        it = {k: 0 for k in T.ITERATION_KEYS} | {"strength": {"win_rate": 0.3, "ci": [0.2, 0.4], "games": 100}}
        if state == "strength":
            del it["strength"]
        state = json.dumps(
            {
                "config": asdict(cfg),
                "learner": T._as_json(asdict(lr)),
                "feature_version": lr.module().FEATURE_VERSION,
                "iterations": [it],
            }
        )
        (ck / "iter-0.npz").write_bytes(b"")
    (ck / "state.json").write_text(state)
    with pytest.raises(TrainError, match=rf"^--out: the checkpoint in .*checkpoint is damaged \({said}.*remove the "):
        T.train(cfg, tmp_path / "t", say=lambda _s: None)


def test_the_seed_range_is_every_commands_own():
    """`sim train` allowed seeds up to 2^63-1 where `sim run` and `sim ladder` take 0..2^64-1 (a fresh user)."""
    from sim.api.train import TrainConfig, check_config

    check_config(TrainConfig("moor", "player", 2**64 - 1, 1, 1, 4, 100, 1e-3))
    with pytest.raises(TrainError, match=r"^--seed: 18446744073709551616 is out of range; allowed 0\.\.2\^64-1$"):
        check_config(TrainConfig("moor", "player", 2**64, 1, 1, 4, 100, 1e-3))
