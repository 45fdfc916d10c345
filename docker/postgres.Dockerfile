# PostgreSQL from Debian's package, for hosts that cannot pull `postgres:16` (no registry
# reachable). Honours the official image's interface that docker-compose.yml relies on:
# POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB, data in /var/lib/postgresql/data,
# `pg_isready` on the PATH. Debian bookworm ships PostgreSQL 15.
ARG BASE=debian:bookworm-slim
FROM ${BASE}
RUN apt-get -o Acquire::Retries=5 update && apt-get -o Acquire::Retries=5 install -y --no-install-recommends postgresql \
    && rm -rf /var/lib/apt/lists/* \
    && ln -s /usr/lib/postgresql/*/bin/* /usr/local/bin/ 2>/dev/null || true \
    && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
    && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
COPY docker/postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
ENV PGDATA=/var/lib/postgresql/data
USER postgres
EXPOSE 5432
# Fast shutdown (as the official image): SIGTERM's "smart" mode waits for every client to leave.
STOPSIGNAL SIGINT
CMD ["sh", "/usr/local/bin/postgres-entrypoint.sh"]
