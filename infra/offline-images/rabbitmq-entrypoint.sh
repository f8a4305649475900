#!/bin/bash
# Entrypoint of the offline RabbitMQ stand-in (see rabbitmq.Dockerfile).
set -euo pipefail
if [ "${1:-}" = rabbitmq-server ]; then
  {
    echo 'loopback_users.guest = false'
    echo 'listeners.tcp.default = 5672'
    if [ -n "${RABBITMQ_DEFAULT_USER:-}" ]; then echo "default_user = $RABBITMQ_DEFAULT_USER"; fi
    if [ -n "${RABBITMQ_DEFAULT_PASS:-}" ]; then echo "default_pass = $RABBITMQ_DEFAULT_PASS"; fi
  } > /etc/rabbitmq/rabbitmq.conf
  chown -R rabbitmq:rabbitmq /var/lib/rabbitmq
fi
exec "$@"
