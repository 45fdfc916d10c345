"""Settings, database engine and security helpers shared by the web app and the Celery tasks."""
