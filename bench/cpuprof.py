"""Run ``cardwar`` with a CPU-time profiler that the load benchmark switches on and off.

Used by ``bench/load.py --profile``. On a loaded machine a wall-clock
profile is dominated by waits (for the GIL, for a core), so this one times
each function with ``time.thread_time`` (the main thread's CPU). Profiling
starts on SIGUSR1 and stops on SIGUSR2 (the benchmark sends them around the
measured seconds, so connecting the players is left out); the stats are
written to the file named by the first argument when the server exits::

    python bench/cpuprof.py OUT.prof serve --port 8000 ...
"""

from __future__ import annotations

import cProfile
import signal
import sys
import time


def main() -> None:
    """Run ``cardwar.cli.main(sys.argv[2:])``; profile between SIGUSR1 and SIGUSR2."""
    out = sys.argv[1]
    profile = cProfile.Profile(time.thread_time)
    signal.signal(signal.SIGUSR1, lambda *_: profile.enable())
    signal.signal(signal.SIGUSR2, lambda *_: profile.disable())
    from cardwar.cli import main as cli_main

    try:
        cli_main(sys.argv[2:])
    finally:
        profile.disable()
        profile.dump_stats(out)


if __name__ == "__main__":
    main()
