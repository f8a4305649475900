#!/bin/bash
# Entrypoint of the offline Redis stand-in (see redis.Dockerfile).
set -euo pipefail
if [ "${1:-}" = redis-server ]; then
  shift
  chown -R redis:redis /data
  exec setpriv --reuid=redis --regid=redis --init-groups redis-server --protected-mode no "$@"
fi
exec "$@"
