"""Limits on a submission that the judge and the web app share (one definition)."""

from __future__ import annotations

# The largest source the judge grades, in bytes (UTF-8). The web app's MAX_SOURCE_BYTES setting
# may lower it for a server, never raise it (app/core/config.py). The largest sample in
# problems/ (flash-attention's CUDA editorial) is 32 KiB.
MAX_SOURCE_BYTES = 64 << 10
