# Stand-in for node:20-bookworm-slim: Debian bookworm with this machine's Node.js and npm (copied into the build
# context by scripts/offline-images.sh) and the image's unprivileged user `node` (uid 1000). It also trusts the
# certificate authorities this machine added (/usr/local/share/ca-certificates, copied as ca/), so that npm works
# behind the same TLS-inspecting egress proxy as the machine itself.
ARG BASE=confab-offline/bookworm:latest
FROM ${BASE}
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates libstdc++6 && rm -rf /var/lib/apt/lists/*
COPY ca/ /usr/local/share/ca-certificates/
RUN update-ca-certificates > /dev/null
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && node --version && npm --version
CMD ["node"]
