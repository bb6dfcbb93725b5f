"""The search strategy's declaration: its parameters, their defaults and what each root reads, as every game
declares it (``search_strategy(role, rollouts)``). Free of scenarios (`sim.model.scenario` reads it to pack and
check a seat's row); `sim.model.search` plays and explains search seats.
"""

from __future__ import annotations

from collections.abc import Sequence

from sim.model.registry import GameSpec, ParamSpec, StrategySpec
from sim.model.words import value_text

SEARCH = "search"
SEARCH_SID = 63  # kernels.search.SEARCH_SID (a test checks they agree; this module imports no kernel)
BUDGET_MAX = 65_536
SEARCH_HELP = (
    "search: flat Monte Carlo over its legal actions (UCB1 or sequential halving); each of `budget` rollouts "
    "re-deals what the seat cannot see and plays the game out with the rollout strategy; plays the best action "
    "found unless it fails to beat the rollout strategy's own choice by `deviate` standard errors"
)


ROOTS = ("ucb1", "halving")  # kernels.search.ROOT_UCB1, ROOT_HALVING (by index)
TIEBREAKS = ("auto", "none", "score")  # kernels.search.TIE_AUTO, TIE_NONE, TIE_SCORE (by index)


def search_params(
    rollouts: Sequence[str],
    extra: tuple[ParamSpec, ...] = (),
    deviate: float = 0.0,
    root: str = "ucb1",
    tiebreak: str = "auto",
) -> tuple[ParamSpec, ...]:
    """The search strategy's parameters, in its kernel's column order (kernels.search.C_*): budget, explore,
    rollout, deviate (default ``deviate``), root (default ``root``), tiebreak (default ``tiebreak``), then the
    game's ``extra`` ones (e.g. Turnwall's memory)."""
    return (
        ParamSpec(
            "budget",
            "int",
            256,
            (1, BUDGET_MAX),
            "rollouts per decision (the unit of thinking; never wall-clock)",
            label="rollouts per decision",
            unit="rollouts",
        ),
        ParamSpec(
            "explore",
            "float",
            0.7,
            (0.0, 10.0),
            "UCB1 exploration constant (0: always the best mean so far once each action was tried); read only with "
            "root ucb1: give it with root halving (the default in most games) and it is an error",
            label="UCB1 exploration constant",
        ),
        ParamSpec(
            "rollout",
            "choice",
            rollouts[0],
            tuple(rollouts),
            "the strategy (scripted or learned) that plays the search seat's part in its rollouts",
            label="rollout strategy",
        ),
        ParamSpec(
            "deviate",
            "float",
            float(deviate),
            (0.0, 10.0),
            "standard errors by which the best action found must beat the rollout strategy's own choice for the "
            "search to play it instead (ucb1: the most tried action's win rate against the choice's; halving: a sign "
            "test of the last challenger against the choice on the last round's paired worlds); 0: no margin. "
            "Guards against playing noise",
            label="margin to overrule the rollout strategy",
            unit="standard errors",
        ),
        ParamSpec(
            "root",
            "choice",
            root,
            ROOTS,
            "how the rollouts are spread over the legal actions: ucb1 (every action once, then the best upper "
            "confidence bound; `explore` weighs it) or halving (sequential halving: rounds of equal rollouts per "
            "action, the worse half dropped after each, the rollout strategy's choice always kept; `explore` unused, "
            "and refused if given)",
            label="rollout allocation (root)",
        ),
        ParamSpec(
            "tiebreak",
            "choice",
            tiebreak,
            TIEBREAKS,
            "halving only: what settles a paired world that both actions won or both lost: none (a tie), score "
            "(the action after which the seat's final score was higher wins it; the halving rounds then rank "
            "actions by worlds won minus worlds lost against the rollout strategy's choice), or auto (the game's "
            "choice for the table: score for Treasure Hunters hunters in the Head Haunter game, where they win "
            "about one game in seven, none elsewhere; measured in docs/guide/search.md)",
            label="tie-break of paired worlds",
        ),
    ) + extra


# the parameters every search strategy has (the rest of a game's search parameters are its ``extra`` ones)
GENERIC = tuple(p.name for p in search_params(("",)))


def search_strategy(
    role: str,
    rollouts: Sequence[str],
    extra: tuple[ParamSpec, ...] = (),
    help: str = "",
    name: str = SEARCH,
    deviate: float = 0.0,
    root: str = "ucb1",
    tiebreak: str = "auto",
) -> StrategySpec:
    """The `search` StrategySpec of ``role``: rollouts with ``rollouts[0]`` by default (``rollouts``: that role's
    scripted strategy names). ``name``: "search" unless a game with several roles names each role's its own way
    (strategy names are unique in a game: Treasure Hunters' Head Haunter plays ``haunter_search``). ``deviate``:
    the default margin, in standard errors, to overrule the rollout strategy (0: play the most tried action)."""
    return StrategySpec(
        name, SEARCH_SID, help or SEARCH_HELP, role, search_params(rollouts, extra, deviate, root, tiebreak)
    )


# a search parameter one root does not read: given with that root it is refused (`unused_with_root`)
UNUSED_WITH_ROOT = {
    "explore": ("halving", "ucb1", "sequential halving spreads the rollouts in rounds, not by UCB1's bound"),
    "tiebreak": ("ucb1", "halving", "UCB1 compares win rates, not paired worlds"),
}
# values of those parameters that change nothing under that root either way, so giving them is no mistake: tiebreak
# none (or auto, which a root without paired worlds cannot use)
HARMLESS_WITH_ROOT = {"tiebreak": ("none", "auto")}


def unused_with_root(st: StrategySpec, params: dict) -> tuple[str, str] | None:
    """(parameter, why) when the parameters a search seat was given (``params``, defaults not filled in) set one
    its root does not read: `explore` with root halving, `tiebreak = "score"` with root ucb1. A sweep of explore under halving played the same games at
    every point and said nothing; a designer means something else (root ucb1, or another parameter). None when
    ``st`` is not a search strategy or every parameter given is read. The why names no syntax: it is said after a
    scenario file's field, a --set and a --strategies rung alike."""
    if st.sid != SEARCH_SID:
        return None
    default = next((p.default for p in st.params if p.name == "root"), "ucb1")
    root = params.get("root", default)
    for name, (root_unused, root_using, how) in UNUSED_WITH_ROOT.items():
        if name in params and root == root_unused and params[name] not in HARMLESS_WITH_ROOT.get(name, ()):
            whose = "" if "root" in params else f", {st.name}'s default here"
            return name, f"unused with root {root}{whose} ({how}); remove {name}, or give root {root_using} to use it"
    return None


def resolve_tiebreak(spec: GameSpec, values: dict, st: StrategySpec, params: dict) -> str:
    """The tie-break a search seat plays, "none" or "score": its `tiebreak` (``params``, the seat's given
    parameters; default the strategy's), "auto" resolved by the game (``spec.search_tiebreak`` of the table's
    parameter ``values`` and the seat's role; "none" for a game without one)."""
    value = params.get("tiebreak", next(p.default for p in st.params if p.name == "tiebreak"))
    if value != "auto":
        return str(value)
    hook = spec.search_tiebreak
    return "none" if hook is None else hook(values, st.role)


def tiebreak_text(given: dict, played: dict | None) -> str | None:
    """A search seat's tie-break where its parameters are shown, when it was left to "auto" (given so, or by
    default) and its root reads it: 'tiebreak = auto (plays score)', ``played`` being the seat's parameters as played
    (`sim.model.search.seats_as_played`, "auto" resolved; without "tiebreak" when its root never reads it).
    None when there is nothing to add: not a search seat, a root that reads no tie-break, or a tie-break given as
    "none" or "score" (shown as given)."""
    if not played or "tiebreak" not in played or given.get("tiebreak", "auto") != "auto":
        return None
    return f"tiebreak = auto (plays {played['tiebreak']})"


def played_is_search(played: dict) -> bool:
    """Whether a seat's parameters as played (`sim.model.search.seats_as_played`, a record's ``played``) are a search
    seat's: they hold its budget and root (no scripted strategy has both)."""
    return "budget" in played and "root" in played


def defaults_text(given: dict, played: dict | None) -> list[str]:
    """A search seat's parameters left to their defaults, as played ('root = halving (default)'): how it searched
    differs by game and role (halving or UCB1), so a report says it though the scenario did not. ``given``: the
    seat's parameters as the scenario gave them; ``played``: as played (`sim.model.search.seats_as_played`). []
    for a scripted seat (``played`` None, or without a budget and a rollout) and for the tie-break
    (`tiebreak_text` says it)."""
    if not played or "budget" not in played or "rollout" not in played:
        return []
    return [f"{k} = {value_text(v)} (default)" for k, v in played.items() if k not in given and k != "tiebreak"]


def read_by_root(st: StrategySpec, params: dict) -> dict:
    """``params`` (a search seat's parameters as played, defaults included) without those its root never reads
    (`UNUSED_WITH_ROOT`): what a report records can be given back as a scenario (explore under halving would be
    refused there)."""
    if st.sid != SEARCH_SID:
        return params
    root = params.get("root", next((p.default for p in st.params if p.name == "root"), "ucb1"))
    return {k: v for k, v in params.items() if not (k in UNUSED_WITH_ROOT and UNUSED_WITH_ROOT[k][0] == root)}
