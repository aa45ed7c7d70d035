# syntax=docker/dockerfile:1
# The Interlock API, the dashboard it serves at / and the packages it serves at /downloads/… (the
# TS SDK and MCP server tarballs, the Python wheel: nothing is published to a registry, so agents
# install from the Interlock they use): build with the full toolchain, run with production
# dependencies only (the dashboard and the packages are static files).
# Build from the repository root:  docker build -f docker/api.Dockerfile -t interlock-api .

FROM node:22-slim AS build
# Python 3 with venv: tools/scripts/build-downloads.mjs builds the wheel with its pinned hatchling.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-venv \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The whole workspace: npm ci needs every workspace's package.json, and the build its sources.
COPY . .
# build-downloads.mjs packs what nx just built (--skip-build) into dist/downloads, the service's
# default DOWNLOADS_DIR; --require-python: an image without the wheel is a failed build.
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && NX_DAEMON=false NX_NO_CLOUD=true npx nx run-many -t build --projects=api,web,sdk-ts,mcp --outputStyle=static \
 && node tools/scripts/build-downloads.mjs --skip-build --require-python \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:22-slim AS runtime
# NODE_OPTIONS: the old generation is capped at 256 MB. Under full load the live heap is about
# 45 MB, but without a cap V8 lets the old generation fill with promoted request garbage between
# full collections (RSS 190–250 MB under the bench's mixed load; near 165 MB with a 192 MB cap:
# BENCHMARKS.md, tools/bench/pairs.bench.mjs reads it from here). 256, not 192: the instance
# holds as many held waits as its heap holds past 128 MB, 16 KB each (SPEC §8e) — about 11,000
# here, so 10,000 waiting agents fit one instance (issue 37 §6; at 192 it ran out of heap at 10,000).
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-old-space-size=256 \
    PORT=3000 \
    DATA_DIR=/app/.data
WORKDIR /app
# The bundle (workspace libraries are inlined) and the production dependencies it requires.
COPY --from=build --chown=root:root /src/package.json ./package.json
COPY --from=build --chown=root:root /src/node_modules ./node_modules
COPY --from=build --chown=root:root /src/dist/apps/api ./dist/apps/api
COPY --from=build --chown=root:root /src/dist/apps/web ./dist/apps/web
# Served at /downloads (DOWNLOADS_DIR defaults to dist/downloads under the working directory).
COPY --from=build --chown=root:root /src/dist/downloads ./dist/downloads
# Only the embedded database (no DATABASE_URL) writes to disk, under DATA_DIR.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node receives SIGTERM directly (exec form): it drains in-flight requests and exits 0.
# --no-allocation-site-pretenuring (a V8 option NODE_OPTIONS refuses): without it a process could
# fall, for the rest of its life, into promoting short-lived request garbage (which allocation
# site starts it is not found), its PK read and pages then costing ~1.5-2x the CPU: 8 of 15
# processes in loaded bench runs without it, 0 of 7 with it, no cost measured otherwise
# (BENCHMARKS.md, "Issue 28, session 22 (dearstate)"). tools/bench reads it from here.
CMD ["node", "--no-allocation-site-pretenuring", "dist/apps/api/main.js"]
