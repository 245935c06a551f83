"""Starting a command as a terminal would, for the tests that press Ctrl-C."""

from __future__ import annotations

import signal


def ctrl_c_as_in_a_terminal() -> None:
    """Run in the child before the command starts: SIGINT back to its default action.

    A shell without job control (a CI script, `cmd &`) starts commands with SIGINT ignored,
    and a child inherits that; Python then leaves it ignored, and Ctrl-C would never arrive.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
