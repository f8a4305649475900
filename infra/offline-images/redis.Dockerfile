# Stand-in for redis:7-alpine: Debian bookworm's Redis 7, run as the redis user in /data, reachable from other
# containers (the official image's build turns protected mode off; so does this entrypoint).
ARG BASE=confab-offline/bookworm:latest
FROM ${BASE}
RUN apt-get update && apt-get install -y --no-install-recommends redis-server redis-tools && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data && chown redis:redis /data
COPY redis-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
VOLUME /data
WORKDIR /data
EXPOSE 6379
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["redis-server"]
