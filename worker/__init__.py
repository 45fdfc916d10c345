"""KernelDojo worker: the judge core (``worker.grading``) and the Celery tasks around it."""
