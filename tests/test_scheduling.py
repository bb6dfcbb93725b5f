"""`make test`'s work units and their order (tests/conftest.py `game_group`, `plays_games`): which tests the
parallel workers run together, and which first."""

from __future__ import annotations

from tests.conftest import game_group, plays_games


def test_a_games_kernel_tests_are_one_unit():
    assert game_group("tests/kernels/moor/test_rules.py::test_x") == "tests/kernels/moor"
    assert game_group("tests/kernels/galleon/test_search.py::test_y[a-b]") == "tests/kernels/galleon"


def test_a_scenario_case_of_a_kernel_test_goes_with_the_other_cases_of_its_game():
    case = "tests/kernels/test_batch_digests.py::test_d[scenarios/turnwall/4p.toml:2p:player=learned]"
    assert game_group(case) == "tests/kernels/test_batch_digests.py::turnwall"


def test_a_module_with_a_module_scoped_fixture_is_one_unit():
    # tests/sim/test_check.py builds its baselines once for the module; test_search_halving one search decision
    assert game_group("tests/sim/test_check.py::test_baselines_are_stamped") == "tests/sim/test_check.py"
    assert game_group("tests/kernels/test_search_halving.py::test_h[3]") == "tests/kernels/test_search_halving.py"


def test_any_other_test_is_its_own_unit():
    assert game_group("tests/sim/test_run.py::test_x") is None
    assert game_group("tests/kernels/test_loop.py::test_y[moor]") is None
    assert game_group("tests/kernels/test_missing_file.py::test_z") is None


def test_the_scheduler_reads_the_kernel_mark_from_the_source_as_pytest_does():
    """`plays_games` (the units that play go out before the quick ones) agrees with the marks pytest collects: a
    test marked itself, a module's ``pytestmark``, everything under tests/kernels/; not an unmarked test."""
    assert plays_games("tests/kernels/test_bits.py::test_nonneg_keeps_every_value_in_range")
    assert plays_games("tests/docs/test_examples.py::test_the_tour_runs_to_the_end_and_says_what_it_found")
    assert plays_games("tests/sim/test_cli.py::test_a_real_signal_stops_sim_run_with_one_line_and_no_folder[a-1-b]")
    assert not plays_games("tests/test_scheduling.py::test_any_other_test_is_its_own_unit")
    assert not plays_games("tests/sim/test_registry.py::test_names_lists_every_game_without_importing_them")
