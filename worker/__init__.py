"""KernelDojo worker: the judge core (``judge``) and the Celery tasks around it."""
