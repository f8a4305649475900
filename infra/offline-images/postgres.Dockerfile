# Stand-in for postgres:15-alpine: Debian bookworm's PostgreSQL (15) behind an entrypoint that honours what Confab
# uses of the official image (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, POSTGRES_HOST_AUTH_METHOD,
# /docker-entrypoint-initdb.d/*.sql, `postgres -c ...` arguments, the two "ready to accept connections" lines).
ARG BASE=confab-offline/bookworm:latest
FROM ${BASE}
RUN echo 'create_main_cluster = false' > /tmp/createcluster.conf \
 && mkdir -p /etc/postgresql-common && cp /tmp/createcluster.conf /etc/postgresql-common/createcluster.conf \
 && apt-get update && apt-get install -y --no-install-recommends postgresql && rm -rf /var/lib/apt/lists/* \
 && ln -s /usr/lib/postgresql/*/bin/* /usr/local/bin/ \
 && mkdir -p /docker-entrypoint-initdb.d /var/lib/postgresql/data /var/run/postgresql \
 && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENV PGDATA=/var/lib/postgresql/data
VOLUME /var/lib/postgresql/data
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
