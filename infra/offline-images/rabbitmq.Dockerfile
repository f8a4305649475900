# Stand-in for rabbitmq:3.13-alpine: Debian bookworm's RabbitMQ (3.10) logging to the console, with the official
# image's RABBITMQ_DEFAULT_USER / RABBITMQ_DEFAULT_PASS and guest allowed from other hosts (as the image allows it).
ARG BASE=confab-offline/bookworm:latest
FROM ${BASE}
RUN apt-get update && apt-get install -y --no-install-recommends rabbitmq-server && rm -rf /var/lib/apt/lists/*
COPY rabbitmq-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENV RABBITMQ_LOGS=-
VOLUME /var/lib/rabbitmq
EXPOSE 5672
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["rabbitmq-server"]
