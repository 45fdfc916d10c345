"""Class mode: courses with invite codes and rosters, assignments with deadlines and grading
rules, the gradebook, per-class leaderboards and the instructors' similarity report.

One module per concern: ``models`` (tables), ``schemas`` (validated input), ``service``
(membership and permissions), ``assignments`` (creating and editing them), ``grades`` (the
gradebook), ``export`` (CSV), ``editorial`` (the editorial solutions' timings the speed score
compares against), ``similarity`` (winnowing fingerprints), ``boards`` (class leaderboards),
``cli`` (``kerneldojo class ...``).
"""
