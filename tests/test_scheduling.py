"""`make test`'s work units (tests/conftest.py `game_group`): which tests the parallel workers run together."""

from __future__ import annotations

from tests.conftest import game_group


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
