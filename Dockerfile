# Container image of the voice-sandbox command line: `serve` (the default, on port 4010) or `run` for scenarios.
# Keep in step with scripts/docker-smoke.sh: it replays these stages without a Docker engine, so a change
# to a COPY or an npm command here needs the same change there (and the other way round); ENV, ENTRYPOINT,
# CMD and the HEALTHCHECK command it reads from this file.

# Node 22 is an LTS line still in support; package.json's engines allow >=20.
ARG NODE_IMAGE=node:22-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Manifests first, so the dependency layer is reused while only the sources change.
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would run tsc before the sources are copied; the build is its own step below.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs ./scripts/
COPY src ./src
COPY fixtures ./fixtures
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
# Every setting comes from the environment (VOICE_SANDBOX_*; see docs/configuration.md); flags after the
# subcommand override it: `docker run IMAGE serve --port 5000`, `docker run IMAGE run "/scenarios/*.yaml"`.
# Listening on 0.0.0.0 needs an admin token: without -e VOICE_SANDBOX_ADMIN_TOKEN, one is made and printed once.
# A young generation of 32 MB semi-spaces (Node's default is 16): under a sustained write load the server
# then holds its rate over a minute instead of losing a fifth of it to the garbage collector
# (docs/benchmarks.md, "A minute of form POSTs and the young generation").
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-semi-space-size=32 \
    VOICE_SANDBOX_HOST=0.0.0.0 \
    VOICE_SANDBOX_PORT=4010 \
    VOICE_SANDBOX_GENERATE_ADMIN_TOKEN=1 \
    VOICE_SANDBOX_PORT_FILE=/tmp/voice-sandbox.port
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only; --ignore-scripts because `prepare` needs tsc, a dev dependency.
# Then Swagger UI for /__sandbox/docs (an optional peer of the package): its files at the locked version,
# unpacked as they are published, without its dependency (an install-time analytics script) or scripts.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && mkdir -p node_modules/swagger-ui-dist \
 && npm pack --silent "swagger-ui-dist@$(node -p "require('./package-lock.json').packages['node_modules/swagger-ui-dist'].version")" \
    | xargs -I{} tar -xzf {} -C node_modules/swagger-ui-dist --strip-components=1 \
 && rm -f swagger-ui-dist-*.tgz && npm cache clean --force
# package.json stays in the image: the server reads its version from it at start.
COPY --from=build /app/dist ./dist
COPY fixtures ./fixtures
# /data is where state can live, writable by the server's user; the code and fixtures stay owned by root, so
# the server cannot rewrite them. No VOLUME: it would make a new anonymous volume on every `docker run`; state
# is kept by naming one (-e VOICE_SANDBOX_DATA_DIR=/data -v sandbox-data:/data), which Docker fills with this
# folder, its owner included, on first use.
RUN mkdir -p /data && chown node:node /data
USER node
# V8's code cache for `serve`, made by one start of the server while the image is built (stopped once the cache
# is written): a container's start is always a first start, and without it compiles the whole program again
# (docs/configuration.md, "Start-up and the compile cache"). The folder is the node user's own; the start runs
# with the image's NODE_OPTIONS, which the cache is made for, and prints no admin token. A start that writes
# no cache fails the build.
ENV VOICE_SANDBOX_COMPILE_CACHE=/home/node/.cache/voice-sandbox
RUN VOICE_SANDBOX_GENERATE_ADMIN_TOKEN=0 VOICE_SANDBOX_PORT_FILE=/tmp/cache-start.port \
    node dist/server/cli.cjs serve --host 127.0.0.1 --port 0 --log-level warn & \
    pid=$!; \
    for i in $(seq 1 300); do \
      ls "$VOICE_SANDBOX_COMPILE_CACHE"/cli-program-serve-*.cache >/dev/null 2>&1 && break; \
      kill -0 "$pid" 2>/dev/null || break; \
      sleep 0.1; \
    done; \
    kill "$pid" 2>/dev/null; wait "$pid" || true; rm -f /tmp/cache-start.port; \
    ls "$VOICE_SANDBOX_COMPILE_CACHE"/cli-program-serve-*.cache >/dev/null 2>&1 || \
      { echo "voice-sandbox: the start made no compile cache in $VOICE_SANDBOX_COMPILE_CACHE" >&2; exit 1; }
EXPOSE 4010
# Probes the port the server bound (VOICE_SANDBOX_PORT_FILE), whether set by -e VOICE_SANDBOX_PORT or --port.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "dist/server/healthcheck.js"]
ENTRYPOINT ["node", "dist/server/cli.cjs"]
CMD ["serve"]
