#!/bin/sh
# The web container's start: migrate (inside `serve`), create the first admin from the
# environment when asked to, then serve on 0.0.0.0:8000. Workers run in their own containers.
set -eu
if [ -n "${KERNELDOJO_ADMIN_USERNAME:-}" ] && [ -n "${KERNELDOJO_ADMIN_PASSWORD:-}" ]; then
    # Reads both from the environment (never from argv, where `ps` would show the password).
    kerneldojo admin create
fi
exec kerneldojo serve --no-worker --host 0.0.0.0 --port "${PORT:-8000}"
