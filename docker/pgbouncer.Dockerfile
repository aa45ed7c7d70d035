# syntax=docker/dockerfile:1
# PgBouncer from Debian (the version the scale-out test runs), in transaction pooling mode.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends pgbouncer \
 && rm -rf /var/lib/apt/lists/*
COPY docker/pgbouncer.ini /etc/pgbouncer/pgbouncer.ini
COPY --chmod=755 docker/pgbouncer-entrypoint.sh /usr/local/bin/pgbouncer-entrypoint.sh
# PgBouncer refuses to run as root.
USER postgres
EXPOSE 6432
ENTRYPOINT ["/usr/local/bin/pgbouncer-entrypoint.sh"]
