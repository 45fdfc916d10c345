"""KernelDojo's worker: the Celery task that grades a queued submission through the judge
(``tasks.py``), and the ``kerneldojo`` command's root (``cli.py``). It imports the judge (``judge``)
and the web's side (``app``); neither imports it."""
