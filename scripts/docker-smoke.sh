#!/usr/bin/env bash
# Replays the Dockerfile's build and runtime stages without a Docker engine, then checks the server answers.
#
# Keep in step with the Dockerfile: the copied paths and the npm commands below are the ones its stages run,
# so a change there needs the same change here (and the other way round). The runtime stage's ENV,
# ENTRYPOINT, CMD and HEALTHCHECK command are read from the Dockerfile itself and run as written.
# What this cannot see: the base image, the non-root user and the HEALTHCHECK timing; a real build checks
# those at the end when a Docker daemon is available, and says why it is skipped otherwise.
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

# Stage "build": COPY package.json package-lock.json; npm ci; COPY tsconfig*, scripts/build.mjs, src, fixtures; npm run build.
cp "$work/context/package.json" "$work/context/package-lock.json" "$work/build/"
step "build stage: npm ci" "$work/build" npm ci --ignore-scripts --no-audit --no-fund
cp "$work/context/tsconfig.json" "$work/context/tsconfig.build.json" "$work/build/"
mkdir -p "$work/build/scripts"
cp "$work/context/scripts/build.mjs" "$work/build/scripts/"
cp -R "$work/context/src" "$work/context/fixtures" "$work/build/"
step "build stage: npm run build" "$work/build" npm run build

# Stage "runtime": COPY manifests; npm ci --omit=dev; COPY --from=build dist; COPY fixtures.
cp "$work/context/package.json" "$work/context/package-lock.json" "$work/runtime/"
step "runtime stage: npm ci --omit=dev" "$work/runtime" npm ci --omit=dev --ignore-scripts --no-audit --no-fund
swagger_version="$(node -p "require('$work/runtime/package-lock.json').packages['node_modules/swagger-ui-dist'].version")"
mkdir -p "$work/runtime/node_modules/swagger-ui-dist"
step "runtime stage: Swagger UI's files" "$work/runtime" sh -c \
  "npm pack --silent swagger-ui-dist@$swagger_version | xargs -I{} tar -xzf {} -C node_modules/swagger-ui-dist --strip-components=1 && rm -f swagger-ui-dist-*.tgz"
[[ -f "$work/runtime/node_modules/swagger-ui-dist/swagger-ui-bundle.js" ]] || fail "Swagger UI's files are not in the image"
[[ ! -e "$work/runtime/node_modules/@scarf" ]] || fail "install-time analytics (@scarf/scarf) is in the image"
cp -R "$work/build/dist" "$work/runtime/dist"
cp -R "$work/context/fixtures" "$work/runtime/fixtures"
# The runtime image has no dev dependencies: a leak into the production tree would hide a missing dependency.
[[ ! -e "$work/runtime/node_modules/typescript" ]] || fail "typescript is in the production dependencies"

free_port() { node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
port="${PORT:-$(free_port)}"

# The runtime stage as the Dockerfile writes it: ENV lines, ENTRYPOINT, CMD and the HEALTHCHECK command.
dockerfile_field() {
  node - "$work/context/Dockerfile" "$1" <<'NODE'
const [file, field] = process.argv.slice(2);
const text = require("node:fs").readFileSync(file, "utf8").replace(/\\\n\s*/g, " ");
const stage = text.slice(text.indexOf(" AS runtime"));
const line = (name) => stage.split("\n").find((l) => l.startsWith(`${name} `)) ?? "";
const json = (l) => JSON.parse(l.slice(l.indexOf("[")));
let out = [];
if (field === "env")
  out = stage.split("\n").filter((l) => l.startsWith("ENV ")).flatMap((l) => l.slice(4).trim().split(/\s+/));
else if (field === "entrypoint") out = json(line("ENTRYPOINT"));
else if (field === "cmd") out = json(line("CMD"));
else if (field === "healthcheck") out = json(line("HEALTHCHECK").replace(/^.*? CMD /, "CMD "));
else if (field === "cache-start")
  out = [stage.split("\n").find((l) => l.startsWith("RUN ") && l.includes("cli.cjs serve"))?.slice(4) ?? ""];
console.log(out.join("\n"));
NODE
}
mapfile -t image_env < <(dockerfile_field env)
mapfile -t entrypoint < <(dockerfile_field entrypoint)
mapfile -t default_cmd < <(dockerfile_field cmd)
mapfile -t healthcheck < <(dockerfile_field healthcheck)
cache_start="$(dockerfile_field cache-start)"
[[ "${entrypoint[*]}" == "node dist/server/cli.cjs" ]] || fail "ENTRYPOINT is not the CLI: ${entrypoint[*]}"
[[ ${#healthcheck[@]} -gt 0 ]] || fail "no HEALTHCHECK command"
[[ -n "$cache_start" ]] || fail "no RUN that starts the server for the compile cache"

# /data: a folder the non-root user owns (made before USER switches to it), and no VOLUME, which would give
# every `docker run` a new anonymous volume (state is kept in a named one: -v sandbox-data:/data).
if grep -q '^VOLUME' "$work/context/Dockerfile"; then fail "the Dockerfile declares a VOLUME"; fi
awk '/AS runtime/{r=1} r&&/chown node:node \/data/{c=1} r&&c&&/^USER node/{ok=1} END{exit !ok}' "$work/context/Dockerfile" ||
  fail "/data is not chowned to node before USER node"
# The compile cache's folder stands in for /home/node/.cache/voice-sandbox: the run user's own, private.
mkdir -p "$work/data" "$work/port"
mkdir -m 700 "$work/cache"

# The image runs as the unprivileged user node, with the code owned by root and only /data writable. Run as
# root here, the server drops to node (or nobody) the same way, so a write outside /data fails as it would.
as_user=()
run_user="$(id -un)"
if [[ "$(id -u)" -eq 0 ]] && command -v setpriv >/dev/null 2>&1; then
  for candidate in node nobody; do
    if id "$candidate" >/dev/null 2>&1; then
      run_user="$candidate"
      as_user=(setpriv "--reuid=$(id -u "$candidate")" "--regid=$(id -g "$candidate")" --clear-groups)
      chmod 755 "$work"
      chown "$candidate" "$work/data" "$work/port" "$work/cache"
      break
    fi
  done
fi

# `docker run IMAGE [args]`: ENTRYPOINT + (args or CMD), in /app, with the image's ENV and any -e on top.
# It execs, so call it in the background or in a subshell; the pid is then the server's own.
container() {
  cd "$work/runtime"
  exec "${as_user[@]}" env "${image_env[@]}" VOICE_SANDBOX_PORT_FILE="$work/port/bound.port" VOICE_SANDBOX_COMPILE_CACHE="$work/cache" "$@" "${entrypoint[@]}" "${container_args[@]}"
}
health() { (cd "$work/runtime" && env "${image_env[@]}" VOICE_SANDBOX_PORT_FILE="$work/port/bound.port" VOICE_SANDBOX_COMPILE_CACHE="$work/cache" "$@" "${healthcheck[@]}"); }
wait_healthy() {
  for _ in $(seq 1 40); do
    if health "$@" 2>/dev/null; then return 0; fi
    kill -0 "$server_pid" 2>/dev/null || return 1
    sleep 0.5
  done
  return 1
}
stop_server() {
  kill -TERM "$server_pid"
  local status=0
  wait "$server_pid" || status=$?
  server_pid=""
  [[ "$status" -eq 0 ]] || fail "server exited with status $status after SIGTERM"
}

# The runtime stage's last RUN, as the image's user with its ENV (its port file in the work folder, not the
# machine's /tmp): one start of the server leaves V8's code cache for `serve` in the image.
step "runtime stage: a start for the compile cache" "$work/runtime" \
  "${as_user[@]}" env "${image_env[@]}" VOICE_SANDBOX_COMPILE_CACHE="$work/cache" \
  sh -c "${cache_start//\/tmp\/cache-start.port/$work/port/cache-start.port}"
compgen -G "$work/cache/cli-program-serve-*.cache" >/dev/null || fail "the start for the compile cache left no cache"
# An image's layers keep file times to the second: the files a container runs have lost what the build gave
# them past the second, and the cache must still be found.
find "$work/runtime/dist" -type f -exec sh -c 'for f; do touch -d "@$(stat -c %Y "$f")" "$f"; done' sh {} +
# Each cache file's name (the program, Node and its flags), inode, time and size: a start that could not use the
# image's cache writes one, under another name for other flags or over it when V8 refused it.
cache_identity() { stat -c '%n %i %Y %s' "$work/cache"/cli-program-serve-*.cache; }
baked="$(cache_identity)"

# 1. `docker run -e VOICE_SANDBOX_PORT=<port> -e VOICE_SANDBOX_DATA_DIR=/data IMAGE`: the default CMD, every
#    setting from the environment; the HEALTHCHECK finds the configured port.
container_args=("${default_cmd[@]}")
container VOICE_SANDBOX_PORT="$port" VOICE_SANDBOX_DATA_DIR="$work/data" >"$work/server.log" 2>&1 &
server_pid=$!
if ! wait_healthy VOICE_SANDBOX_PORT="$port"; then
  echo "--- server log ---"
  cat "$work/server.log"
  fail "the HEALTHCHECK found no healthy server on port $port"
fi

# Bound to 0.0.0.0 with no token given: the image made one, printed it once, and the admin API requires it.
token="$(sed -n 's/^voice-sandbox: admin token (generated[^)]*): //p' "$work/server.log")"
[[ -n "$token" ]] || fail "no generated admin token printed"
state_probe="fetch('http://127.0.0.1:${port}/__sandbox/state',{headers:process.argv[1]?{authorization:'Bearer '+process.argv[1]}:{}}).then(r=>{console.log(r.status)})"
[[ "$(node -e "$state_probe" -- "")" == "401" ]] || fail "the admin API answered without the generated token"
[[ "$(node -e "$state_probe" -- "$token")" == "200" ]] || fail "the admin API refused the generated token"

# The image serves Swagger UI at /__sandbox/docs (its optional peer is installed there).
docs_probe="fetch('http://127.0.0.1:${port}/__sandbox/docs').then(r=>r.text()).then(t=>console.log(t.includes('swagger-ui-bundle.js')))"
[[ "$(node -e "$docs_probe")" == "true" ]] || fail "/__sandbox/docs does not serve Swagger UI"

# The data directory is written: a reset compacts the state into it.
reset_probe="fetch('http://127.0.0.1:${port}/__sandbox/reset',{method:'POST',headers:{authorization:'Bearer '+process.argv[1],'content-type':'application/json'}}).then(r=>{console.log(r.status)})"
[[ "$(node -e "$reset_probe" -- "$token")" == "200" ]] || fail "reset refused"
[[ -n "$(ls -A "$work/data")" ]] || fail "nothing written to the data directory"

# The server stops cleanly on SIGTERM, which is what `docker stop` sends.
stop_server

# The container's start ran from the image's code cache: V8 took it, so it was not written again.
[[ "$(cache_identity)" == "$baked" ]] || fail "the container's start did not use the image's compile cache (it wrote a new one)"
# And the cache was on for it: the same start with other Node flags, which the image's cache is not made for,
# writes one of its own beside it.
control="$(free_port)"
container_args=("${default_cmd[@]}")
container NODE_OPTIONS=--max-semi-space-size=16 VOICE_SANDBOX_PORT="$control" >"$work/control.log" 2>&1 &
server_pid=$!
wait_healthy VOICE_SANDBOX_PORT="$control" || { cat "$work/control.log"; fail "the start with other Node flags did not come up"; }
stop_server
[[ "$(compgen -G "$work/cache/cli-program-serve-*.cache" | wc -l)" -eq 2 ]] ||
  fail "a start with other Node flags wrote no compile cache of its own: the cache is off in the container"

# 2. `docker run -e VOICE_SANDBOX_PORT=<port> IMAGE serve --port <other>`: the flag wins over the environment,
#    and the HEALTHCHECK follows the port actually bound.
other="$(free_port)"
rm -f "$work/port/bound.port"
container_args=(serve --port "$other")
container VOICE_SANDBOX_PORT="$port" >"$work/server2.log" 2>&1 &
server_pid=$!
wait_healthy VOICE_SANDBOX_PORT="$port" || { cat "$work/server2.log"; fail "the HEALTHCHECK did not follow --port $other"; }
grep -Eq "listening on http://[0-9.]+:${other}\b" "$work/server2.log" || fail "--port $other did not override VOICE_SANDBOX_PORT"
stop_server

# 3. `docker run -v ./scenarios:/scenarios IMAGE run "/scenarios/*.yaml"`: the CLI's other subcommand.
container_args=(run "$work/context/scenarios/*.yaml")
(container) >"$work/run.log" 2>&1 || { cat "$work/run.log"; fail "run /scenarios/*.yaml failed"; }
grep -q "passed" "$work/run.log" || { cat "$work/run.log"; fail "run printed no summary"; }

echo "docker-smoke: PASS: built, installed production dependencies and Swagger UI's files; as user $run_user: serve from the environment (port $port, /data written, health via the HEALTHCHECK, code from the image's compile cache), --port overriding it ($other), run for scenarios ($((SECONDS - started)) s)"

# A real image, where a Docker engine is available.
if ! command -v docker >/dev/null 2>&1; then
  echo "docker-smoke: real image build skipped: no docker command on this machine"
elif ! docker info >/dev/null 2>&1; then
  echo "docker-smoke: real image build skipped: no Docker daemon answers (docker info failed)"
else
  image="voice-sandbox-smoke:$$"
  docker build -q -t "$image" "$repo" >/dev/null || fail "docker build"
  cid="$(docker run -d -e VOICE_SANDBOX_PORT=4040 -e VOICE_SANDBOX_DATA_DIR=/data "$image")"
  healthy=""
  for _ in $(seq 1 40); do
    if docker exec "$cid" "${healthcheck[@]}" 2>/dev/null; then healthy=1; break; fi
    sleep 0.5
  done
  [[ "$(docker exec "$cid" id -un)" == "node" ]] || { docker rm -f "$cid" >/dev/null; fail "the image does not run as node"; }
  docker exec "$cid" sh -c 'test -w /data' || { docker rm -f "$cid" >/dev/null; fail "/data is not writable"; }
  # The start ran from the compile cache the image was built with: V8 took it, so it was not written again.
  cache_mtime='stat -c "%n %Y %s" "$VOICE_SANDBOX_COMPILE_CACHE"/cli-program-serve-*.cache'
  in_image="$(docker run --rm --entrypoint sh "$image" -c "$cache_mtime")"
  [[ -n "$in_image" && "$(docker exec "$cid" sh -c "$cache_mtime")" == "$in_image" ]] ||
    { docker rm -f "$cid" >/dev/null; fail "the container's start did not use the image's compile cache"; }
  docker rm -f "$cid" >/dev/null
  [[ -n "$healthy" ]] || fail "the real image was not healthy on VOICE_SANDBOX_PORT=4040"
  docker run --rm -v "$repo/scenarios:/scenarios:ro" "$image" run "/scenarios/*.yaml" >/dev/null || fail "docker run IMAGE run /scenarios/*.yaml"
  docker rmi "$image" >/dev/null || true
  echo "docker-smoke: PASS: real image (port from the environment, non-root, writable /data, its compile cache used, run for scenarios)"
fi
