# Redis from Debian's package, for hosts that cannot pull `redis:7` (no registry reachable).
# docker-compose.yml uses REDIS_IMAGE (default redis:7); scripts/compose_smoke.py builds this
# one from a local Debian base and points REDIS_IMAGE at it. Same interface: `redis-server`
# on 6379, data in /data, `redis-cli` for the health check.
ARG BASE=debian:bookworm-slim
FROM ${BASE}
RUN apt-get -o Acquire::Retries=5 update && apt-get -o Acquire::Retries=5 install -y --no-install-recommends redis-server \
    && rm -rf /var/lib/apt/lists/* && mkdir -p /data && chown redis:redis /data
WORKDIR /data
USER redis
EXPOSE 6379
CMD ["redis-server", "--bind", "0.0.0.0", "--protected-mode", "no", "--dir", "/data"]
