"""The stand-in for typeguard's decorator that marks per-node code.

The test suite checks annotated calls at run time with typeguard, which would make a search
many times slower; per-node functions are marked to be skipped, and mypy checks them
statically instead.  typeguard recognises its decorator by the name it was imported under,
so each module with per-node code writes::

    if TYPE_CHECKING:  # mypy sees typeguard's own decorator and checks the function
        from typeguard import typeguard_ignore
    else:  # at run time typeguard is not needed: this stand-in changes nothing
        typeguard_ignore = _hot.typeguard_ignore

(The interpreter has the same module: the searchers import nothing from the other packages.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

_Function = TypeVar("_Function", bound=Callable[..., Any])


def typeguard_ignore(function: _Function) -> _Function:
    """Return ``function`` unchanged: the mark matters only to typeguard's instrumentation."""
    return function
