# Container image for the standalone voice-sandbox server (`voice-sandbox serve` on port 4010).
# Keep in step with scripts/docker-smoke.sh: it replays these stages without a Docker engine, so a change
# to a COPY, an npm command or the CMD here needs the same change there (and the other way round).

# Node 22 is an LTS line still in support; package.json's engines allow >=20.
ARG NODE_IMAGE=node:22-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Manifests first, so the dependency layer is reused while only the sources change.
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would run tsc before the sources are copied; the build is its own step below.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY fixtures ./fixtures
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
# Listening on 0.0.0.0 needs an admin token: without -e VOICE_SANDBOX_ADMIN_TOKEN, one is made and printed once.
ENV NODE_ENV=production \
    VOICE_SANDBOX_HOST=0.0.0.0 \
    VOICE_SANDBOX_GENERATE_ADMIN_TOKEN=1
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only; --ignore-scripts because `prepare` needs tsc, a dev dependency.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
# package.json stays in the image: the server reads its version from it at start.
COPY --from=build /app/dist ./dist
COPY fixtures ./fixtures
# The files stay owned by root, so the server process cannot rewrite its own code or fixtures.
USER node
EXPOSE 4010
# Slim images have no curl; Node's own fetch does the probe.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:4010/__sandbox/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]
CMD ["node", "dist/server/cli.js", "serve", "--host", "0.0.0.0", "--port", "4010"]
