"""deid: anonymizing German court decisions.

One process-wide setting is made here, before anything loads torch's OpenMP runtime: threads
that finish their share of an operation wait passively (they sleep) instead of spinning. On
a machine shared with other work (a Prefect worker, Dask workers beside each other, CI), a
spinning thread whose partner was descheduled holds its core at every barrier: training on
two threads ran 4 to 8 times slower than on one with another process busy, and as fast as
expected with passive waiting (bench/training_step.py, docs/results.md). An
``OMP_WAIT_POLICY`` set by the user is kept.
"""

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
