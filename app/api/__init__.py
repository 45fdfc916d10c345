"""The JSON API under /api/v1 (OpenAPI docs at /api/v1/docs)."""
