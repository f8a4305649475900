# One image for every Confab process: the command picks the process, e.g. `node services/settings/dist/main.js`,
# `node services/messaging/dist/worker.js`, `node scripts/migrate.mjs deploy` (see docker-compose.yml, infra/k8s).
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
ENV CI=1 CHECKPOINT_DISABLE=1 PRISMA_HIDE_UPDATE_MESSAGE=1
RUN npm install --global pnpm@10.34.9
WORKDIR /app
# Dependencies are downloaded from the lockfile alone, so this layer is rebuilt only when the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN pnpm install --offline --frozen-lockfile
# prisma generate needs only a well-formed URL in the variable the schema names (as in scripts/confab.mjs build).
RUN set -e; for schema in services/*/prisma/schema.prisma; do \
      [ -f "$schema" ] || continue; \
      dir="${schema%/prisma/schema.prisma}"; \
      var="$(sed -n 's/.*url *= *env("\([A-Z0-9_]*\)").*/\1/p' "$schema")"; \
      (cd "$dir" && env "$var=postgresql://localhost:5432/generate" node_modules/.bin/prisma generate); \
    done
RUN node_modules/.bin/tsc -b tsconfig.json
# The web client (web/dist), served by the gateway at /.
RUN cd web && node_modules/.bin/vite build --logLevel warn
# Production dependencies only. The prisma CLI stays for the migration step: it is a dependency of infra/, linked
# where the services' prisma.config.ts files resolve `prisma/config` from.
RUN rm -rf node_modules */node_modules */*/node_modules \
 && pnpm install --offline --frozen-lockfile --prod \
 && ln -s ../infra/node_modules/prisma node_modules/prisma \
 && find . -name '*.tsbuildinfo' -not -path './node_modules/*' -delete

FROM ${NODE_IMAGE}
ENV NODE_ENV=production CHECKPOINT_DISABLE=1 PRISMA_HIDE_UPDATE_MESSAGE=1
# The V8 flags of libs/devkit/src/catalog.ts (NODE_FLAGS), for every process the image runs.
ENV NODE_OPTIONS=--max-semi-space-size=32
WORKDIR /app
# Owned by root and read-only to the process user: the processes write nothing under /app. Everything they write
# (uploads, custom emoji, captured mail in development) goes under CONFAB_DATA_DIR, a volume owned by the node user.
# pg_dump and pg_restore for `npm run admin -- backup|restore` (docs/architecture.md, "Backup and restore"): Debian
# bookworm's client, PostgreSQL 15. pg_dump refuses a server of a newer major version, so the deployments here run
# PostgreSQL 15 (docker-compose.yml); against a newer managed server, give the CLI a client of that version
# (CONFAB_PG_BIN).
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-client \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /app /app
ENV CONFAB_DATA_DIR=/data
RUN mkdir -p /data && chown 1000:1000 /data
VOLUME /data
# The node image's unprivileged user (uid 1000); Kubernetes pins the same uid in its securityContext.
USER node
EXPOSE 9991
CMD ["node", "gateway/dist/main.js"]
