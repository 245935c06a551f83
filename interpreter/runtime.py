"""What compiled rules may call: the built-in functions, the operators of `gdl.library`, and a
few helpers of the generated code, nothing else.

The compiled code runs with an empty `__builtins__`; `namespace` is the whole of the Python it
can reach.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Callable

from gdl import _hot, library
from gdl.builtins import TABLE
from gdl.limits import LOOP_LIMIT
from gdl.values import CHANCE, EMPTY, Grid, Map, RuleError, Set, Symbol

if TYPE_CHECKING:  # mypy sees typeguard's own decorator and checks the function
    from typeguard import typeguard_ignore
else:  # at run time typeguard is not needed: this stand-in changes nothing
    typeguard_ignore = _hot.typeguard_ignore


def go_on() -> None:
    """In an `except:` of compiled code: an interruption (Ctrl-C) or an exit is raised again;
    a failure of a rule is let go, for the code to take its other way."""
    if not isinstance(sys.exc_info()[1], Exception):
        raise  # noqa: PLE0704 - re-raises the exception being handled


@typeguard_ignore
def _loop_limit() -> None:
    raise RuleError(f"a `while` loop ran more than {LOOP_LIMIT} times")


class Successors:
    """The states after moves, as `after` makes them, kept so that `result` gives the same state
    again instead of making it twice: for each of the last states asked about (a search goes
    down and back up through them), its successors by move."""

    _KEEP = 256  # states whose successors are kept; a search deeper than this makes some twice

    def __init__(self, result: Callable[[Any, Any], Any]) -> None:
        self._result = result
        self._known: dict[int, tuple[Any, dict[Any, Any]]] = {}

    @typeguard_ignore
    def successor(self, state: Any, move: Any) -> Any:
        """The state after `move`, made once."""
        entry = self._known.get(id(state))
        if entry is None or entry[0] is not state:
            if len(self._known) >= self._KEEP:
                self._known.clear()
            entry = self._known[id(state)] = (state, {})
        made = entry[1].get(move)
        if made is None:
            made = entry[1][move] = self._result(state, move)
        return made

    @typeguard_ignore
    def result(self, state: Any, move: Any) -> Any:
        """The state after `move`: the one `after` made, if it made it."""
        entry = self._known.get(id(state))
        if entry is not None and entry[0] is state:
            made = entry[1].get(move)
            if made is not None:
                return made
        return self._result(state, move)


def namespace(players: tuple[Symbol, ...]) -> dict[str, Any]:
    """The globals of a game's compiled code: built-ins, helpers, and no Python builtins."""
    names: dict[str, Any] = {"__builtins__": {}}
    for builtin in TABLE:
        if builtin.implementation is not None:
            made = builtin.implementation(players) if builtin.for_players else builtin.implementation
            names["b_" + builtin.name] = made
    names.update({
        "_tuple": tuple, "_Map": Map, "_Set": Set, "_index": library.index, "_put": library.put,
        "_put_item": library.put_item, "_put_cell": Grid.with_cell, "_put_position": Grid.with_position,
        "_put_key": Map.with_item, "_divide": library.divide, "_divide_integers": library.divide_integers,
        "_power": library.power, "_loop_limit": _loop_limit, "_go_on": go_on, "_concat": library.concat, "_repeat": library.repeat,
        "_LOOP_LIMIT": LOOP_LIMIT, "_players": players, "s_empty": EMPTY, "s_chance": CHANCE,
    })
    return names
