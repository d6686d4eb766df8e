#!/usr/bin/env bash
# Replays the Dockerfile's build and runtime stages without a Docker engine, then checks the server answers.
#
# Keep in step with the Dockerfile: the copied paths, the npm commands and the start command below are the
# ones its stages run, so a change there needs the same change here (and the other way round).
# What this cannot see: the base image, the non-root user and the HEALTHCHECK timing; those need a real build.
#
# Environment: PORT (default: a free port), SMOKE_KEEP=1 keeps the temporary directory for a look afterwards.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/voice-sandbox-docker-smoke.XXXXXX")"
server_pid=""
started=$SECONDS

cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [[ "${SMOKE_KEEP:-}" == "1" ]]; then echo "docker-smoke: kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

fail() {
  echo "docker-smoke: FAIL: $*"
  exit 1
}

# npm's output goes to a log that is shown only when a step fails, so CI logs stay short.
step() {
  local name="$1" dir="$2"
  shift 2
  if ! (cd "$dir" && "$@") >>"$work/steps.log" 2>&1; then
    tail -n 40 "$work/steps.log"
    fail "$name"
  fi
}

# The build context: the files git would commit (tracked, plus new ones not ignored), so uncommitted work is
# tested too; node_modules, dist and other ignored output stay out, as .dockerignore keeps them out.
mkdir -p "$work/context" "$work/build" "$work/runtime"
(
  cd "$repo"
  git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' file; do
      # A tracked file deleted in the working tree is still listed; skip it as a build would not see it.
      if [[ -e "$file" ]]; then printf '%s\0' "$file"; fi
    done |
    tar --null -T - -cf -
) | tar -xf - -C "$work/context"

# Stage "build": COPY package.json package-lock.json; npm ci; COPY tsconfig*, src, fixtures; npm run build.
cp "$work/context/package.json" "$work/context/package-lock.json" "$work/build/"
step "build stage: npm ci" "$work/build" npm ci --ignore-scripts --no-audit --no-fund
cp "$work/context/tsconfig.json" "$work/context/tsconfig.build.json" "$work/build/"
cp -R "$work/context/src" "$work/context/fixtures" "$work/build/"
step "build stage: npm run build" "$work/build" npm run build

# Stage "runtime": COPY manifests; npm ci --omit=dev; COPY --from=build dist; COPY fixtures.
cp "$work/context/package.json" "$work/context/package-lock.json" "$work/runtime/"
step "runtime stage: npm ci --omit=dev" "$work/runtime" npm ci --omit=dev --ignore-scripts --no-audit --no-fund
cp -R "$work/build/dist" "$work/runtime/dist"
cp -R "$work/context/fixtures" "$work/runtime/fixtures"
# The runtime image has no dev dependencies: a leak into the production tree would hide a missing dependency.
[[ ! -e "$work/runtime/node_modules/typescript" ]] || fail "typescript is in the production dependencies"

port="${PORT:-$(node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')}"

# CMD, with the port swapped for a free one; ENV as the runtime stage sets it.
(
  cd "$work/runtime"
  NODE_ENV=production VOICE_SANDBOX_HOST=0.0.0.0 VOICE_SANDBOX_GENERATE_ADMIN_TOKEN=1 \
    exec node dist/server/cli.js serve --host 0.0.0.0 --port "$port"
) >"$work/server.log" 2>&1 &
server_pid=$!

# The HEALTHCHECK's own probe, on the chosen port, for up to about 20 seconds.
probe="fetch('http://127.0.0.1:${port}/__sandbox/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
healthy=""
for _ in $(seq 1 40); do
  if node -e "$probe" 2>/dev/null; then
    healthy=1
    break
  fi
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.5
done

if [[ -z "$healthy" ]]; then
  echo "--- server log ---"
  cat "$work/server.log"
  fail "no healthy answer from /__sandbox/health on port $port"
fi

# Bound to 0.0.0.0 with no token given: the image made one, printed it once, and the admin API requires it.
token="$(sed -n 's/^voice-sandbox: admin token (generated[^)]*): //p' "$work/server.log")"
[[ -n "$token" ]] || fail "no generated admin token printed"
state_probe="fetch('http://127.0.0.1:${port}/__sandbox/state',{headers:process.argv[1]?{authorization:'Bearer '+process.argv[1]}:{}}).then(r=>{console.log(r.status)})"
[[ "$(node -e "$state_probe" "")" == "401" ]] || fail "the admin API answered without the generated token"
[[ "$(node -e "$state_probe" "$token")" == "200" ]] || fail "the admin API refused the generated token"

# The server stops cleanly on SIGTERM, which is what `docker stop` sends.
kill -TERM "$server_pid"
status=0
wait "$server_pid" || status=$?
server_pid=""
[[ "$status" -eq 0 ]] || fail "server exited with status $status after SIGTERM"

echo "docker-smoke: PASS: built, installed production dependencies, served /__sandbox/health on port $port ($((SECONDS - started)) s)"
