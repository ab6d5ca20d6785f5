#!/usr/bin/env bash
# Reproduces the Dockerfile where no Docker engine runs, and proves the production install serves:
#   build stage:   npm ci, npm run build, npm prune --omit=dev   (in a clean copy of the build inputs)
#   runtime stage: only package.json, node_modules, dist/, docs/ and public/, no provider keys, no dev dependencies
# then starts `node dist/server.js` and queries it. Keep the copied paths in step with the Dockerfile.
#
#   scripts/docker-smoke.sh --image IMAGE   instead checks a built image on a Docker engine, for what only an
#   engine shows: the user Kubernetes' runAsNonRoot verifies, and how soon the HEALTHCHECK reports healthy.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/fedsearch-smoke.XXXXXX")"
SERVER_PID=""

CONTAINER=""

cleanup() {
  if [[ -n "$CONTAINER" ]]; then docker rm -f "$CONTAINER" >/dev/null 2>&1 || true; fi
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

step() { printf '\n==> %s\n' "$*"; }
fail() {
  printf 'docker-smoke: FAILED: %s\n' "$*" >&2
  if [[ -f "$WORK/server.log" ]]; then
    printf -- '--- server log (last 40 lines) ---\n' >&2
    tail -n 40 "$WORK/server.log" >&2
  fi
  exit 1
}

free_port() {
  node -e "const s = require('node:net').createServer(); s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });"
}

# The checks that need an engine, on an image built from the Dockerfile (docker build, or docker-check).
check_image() {
  local image="$1"
  docker image inspect "$image" >/dev/null || fail "no image $image on this engine"

  step "$image: a numeric non-root user, the base image's node (Kubernetes runAsNonRoot cannot verify a name)"
  local user uid gid
  user="$(docker image inspect --format '{{.Config.User}}' "$image")"
  [[ "$user" =~ ^([0-9]+):([0-9]+)$ ]] || fail "USER is '$user', not uid:gid in numbers"
  uid="${BASH_REMATCH[1]}" gid="${BASH_REMATCH[2]}"
  [[ "$uid" -ne 0 ]] || fail "USER is root ($user)"
  [[ "$(docker run --rm --user 0 --entrypoint id "$image" -u node)" == "$uid" ]] || fail "uid $uid is not the image's node user"
  [[ "$(docker run --rm --user 0 --entrypoint id "$image" -g node)" == "$gid" ]] || fail "gid $gid is not the image's node group"
  echo "ok  USER $user (node)"
  # The service reads its code and cannot rewrite it.
  docker run --rm --entrypoint sh "$image" -c 'test -r /app/dist/server.js && ! touch /app/dist/.written 2>/dev/null' \
    || fail "/app/dist is unreadable or writable by $user"
  echo "ok  /app/dist readable, not writable, by $user"

  step "$image: first probed within 11 s of the start, then healthy (CapRover and compose's service_healthy wait for it)"
  local port since health started probed
  port="$(free_port)"
  since="$(date +%s)"
  # Host networking on loopback, as docker-check runs it: no published port, nothing beyond this machine.
  CONTAINER="$(docker run -d --network host -e PORT="$port" -e HOST=127.0.0.1 -e LOG_LEVEL=warn "$image")" || fail "docker run $image"
  # The engine's own health_status event, not a poll. A process substitution, not a pipe: the first event ends
  # the wait, where a pipe would wait on `docker events` until its next line (the removal's, below) or the timeout.
  # 60 s: the service itself may take a while to start on a busy machine; what the image decides is measured below.
  local events
  exec {events}< <(timeout 60 docker events --since "$since" --filter "container=$CONTAINER" --filter event=health_status --format '{{.Status}}')
  read -r -u "$events" health || true
  exec {events}<&-
  if [[ "$health" != "health_status: healthy" ]]; then
    docker logs "$CONTAINER" 2>&1 | tail -n 20 >&2
    fail "no healthy report within 60 s (got '${health:-nothing}', now $(docker inspect --format '{{.State.Health.Status}}' "$CONTAINER"))"
  fi
  # Docker probes first one interval after the start: that, not the machine's speed, is what the image sets.
  started="$(date -d "$(docker inspect --format '{{.State.StartedAt}}' "$CONTAINER")" +%s%N)"
  probed="$(docker inspect --format '{{(index .State.Health.Log 0).Start.UnixNano}}' "$CONTAINER")"
  (( probed - started <= 11000000000 )) || fail "the first probe came $(( (probed - started) / 1000000 )) ms after the start"
  echo "ok  first probe $(( (probed - started) / 1000000 )) ms after the start; healthy $(( $(date +%s) - since )) s after docker run"
  docker rm -f "$CONTAINER" >/dev/null
  CONTAINER=""
  printf '\ndocker-smoke: OK (image %s: user %s, first probed within 11 s, healthy)\n' "$image" "$user"
}

if [[ "${1:-}" == --image ]]; then
  [[ -n "${2:-}" ]] || fail "usage: $0 --image IMAGE"
  check_image "$2"
  exit 0
fi

BUILD="$WORK/build"
RUNTIME="$WORK/runtime"
mkdir -p "$BUILD" "$RUNTIME"

step "build stage: copy the build inputs (as the Dockerfile's COPY lines)"
for input in package.json package-lock.json tsconfig.json tsconfig.build.json src; do
  [[ -e "$ROOT/$input" ]] || fail "missing build input $input"
  cp -R "$ROOT/$input" "$BUILD/"
done

step "build stage: npm ci"
(cd "$BUILD" && npm ci --no-audit --no-fund --prefer-offline --loglevel=error)

step "build stage: npm run build"
(cd "$BUILD" && npm run build --silent)

step "build stage: npm prune --omit=dev"
(cd "$BUILD" && npm prune --omit=dev --no-audit --no-fund --loglevel=error)
for dev_only in typescript vitest tsx autocannon; do
  [[ ! -e "$BUILD/node_modules/$dev_only" ]] || fail "dev dependency $dev_only survived the prune"
done

step "runtime stage: package.json, node_modules, dist/, docs/, public/ only"
cp -R "$BUILD/package.json" "$BUILD/node_modules" "$BUILD/dist" "$RUNTIME/"
cp -R "$ROOT/docs" "$RUNTIME/docs"
cp -R "$ROOT/public" "$RUNTIME/public"

PORT="$(free_port)"
ORIGIN="http://127.0.0.1:$PORT"

step "start: node dist/server.js on $ORIGIN (NODE_ENV=production, no provider keys)"
# env -i: nothing from this shell (keys, SEARXNG_URL, …) reaches the server, as in a fresh container.
(
  cd "$RUNTIME"
  exec env -i PATH="$PATH" HOME="$WORK" NODE_ENV=production PORT="$PORT" HOST=127.0.0.1 LOG_LEVEL=warn \
    NODE_OPTIONS=--max-semi-space-size=32 node dist/server.js
) >"$WORK/server.log" 2>&1 &
SERVER_PID=$!

# One Node helper for every check: GET a path, print the body, fail on a non-2xx status or a broken assertion.
check() {
  local path="$1" assertion="$2"
  ORIGIN="$ORIGIN" CHECK_PATH="$path" ASSERTION="$assertion" node --input-type=module -e '
    const response = await fetch(process.env.ORIGIN + process.env.CHECK_PATH, { signal: AbortSignal.timeout(15000) });
    const body = await response.json();
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${JSON.stringify(body)}`);
    const assert = new Function("body", process.env.ASSERTION);
    const summary = await assert(body);
    console.log(`ok  GET ${process.env.CHECK_PATH}${summary ? ` — ${summary}` : ""}`);
  '
}

step "wait for /healthz (at most 20 s)"
ORIGIN="$ORIGIN" SERVER_PID="$SERVER_PID" node --input-type=module -e '
  const deadline = Date.now() + 20000;
  for (;;) {
    try { process.kill(Number(process.env.SERVER_PID), 0); } catch { console.error("the server exited during start-up"); process.exit(1); }
    try {
      const response = await fetch(process.env.ORIGIN + "/healthz", { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) { console.error("no answer on /healthz within 20 s"); process.exit(1); }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
' || fail "the server did not become healthy"

step "the image's HEALTHCHECK command (node dist/healthcheck.js, as the Dockerfile runs it)"
(cd "$RUNTIME" && env -i PATH="$PATH" PORT="$PORT" HOST=127.0.0.1 node dist/healthcheck.js) || fail "HEALTHCHECK"
echo "ok  HEALTHCHECK"

step "query the production server"
check /healthz 'if (body.status !== "ok") throw new Error("healthz: " + JSON.stringify(body));' || fail "/healthz"
check /readyz 'if (body.status !== "ready") throw new Error("readyz: " + JSON.stringify(body));' || fail "/readyz"
check /openapi.json '
  if (!String(body.openapi).startsWith("3.")) throw new Error("not an OpenAPI 3 document");
  for (const path of ["/v1/search/web", "/v1/search/papers", "/v1/providers"]) {
    if (!body.paths?.[path]) throw new Error("openapi.json lacks " + path);
  }
  return Object.keys(body.paths).length + " paths";
' || fail "/openapi.json"

# The search page and every file it loads come from the production install itself (public/).
# Every file of public/ but the page itself, as the page's modules import one another: a list written here missed some.
ORIGIN="$ORIGIN" PUBLIC="$ROOT/public" node --input-type=module -e '
  const { readdirSync } = await import("node:fs");
  const page = await fetch(process.env.ORIGIN + "/", { signal: AbortSignal.timeout(10000) });
  const html = await page.text();
  if (!page.ok || !html.includes("<script type=\"module\" src=\"/web/app.js\">")) throw new Error("/: HTTP " + page.status);
  const assets = readdirSync(process.env.PUBLIC).filter((name) => name !== "index.html").map((name) => "/web/" + name);
  for (const asset of assets) {
    const response = await fetch(process.env.ORIGIN + asset, { signal: AbortSignal.timeout(10000) });
    if (!response.ok) throw new Error(asset + ": HTTP " + response.status);
  }
  console.log("ok  GET / — the search page and its " + assets.length + " files");
' || fail "the search page"

# Web providers as the service lists them; the search must report a status for every one of them.
WEB_PROVIDERS="$(ORIGIN="$ORIGIN" node --input-type=module -e '
  const response = await fetch(process.env.ORIGIN + "/v1/providers", { signal: AbortSignal.timeout(10000) });
  if (!response.ok) throw new Error("HTTP " + response.status);
  const { providers } = await response.json();
  console.log(providers.filter((provider) => provider.kind === "web").map((provider) => provider.name).sort().join(","));
')" || fail "/v1/providers"
[[ "$WEB_PROVIDERS" == *local* ]] || fail "/v1/providers does not list local among web providers ($WEB_PROVIDERS)"

# timeout_ms keeps it fast when a keyless provider (wikipedia) points at an unreachable internet.
WEB_PROVIDERS="$WEB_PROVIDERS" check '/v1/search/web?q=provider&timeout_ms=3000' '
  const expected = process.env.WEB_PROVIDERS.split(",");
  const reported = body.providers.map((outcome) => outcome.provider).sort();
  if (reported.join(",") !== expected.join(",")) throw new Error(`providers ${reported} != ${expected}`);
  const local = body.providers.find((outcome) => outcome.provider === "local");
  if (local.status !== "ok" || local.count < 1) throw new Error("local: " + JSON.stringify(local));
  if (body.results.length < 1) throw new Error("no results");
  const sources = new Set(body.results.flatMap((result) => result.sources.map((source) => source.provider)));
  if (!sources.has("local")) throw new Error("no result from local");
  for (const outcome of body.providers) {
    if (!["ok", "error", "timeout", "not_configured", "skipped"].includes(outcome.status)) throw new Error("bad status " + outcome.status);
  }
  return body.results.length + " results; " + body.providers.map((o) => o.provider + "=" + o.status).join(" ");
' || fail "/v1/search/web"

step "read a PDF on a reader thread (dist/fetch/pdf-worker.js and piscina, from the production install)"
(
  cd "$RUNTIME"
  node --input-type=module -e '
    // A one-page PDF written out by hand; PDF.js rebuilds the cross-reference table it lacks.
    const content = "BT /F1 12 Tf 72 720 Td (smoke test text) Tj ET";
    const pdf = Buffer.from([
      "%PDF-1.4",
      "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj",
      "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj",
      "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >> endobj",
      "4 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj",
      `5 0 obj << /Length ${content.length} >>\nstream\n${content}\nendstream\nendobj`,
      "trailer << /Root 1 0 R >>",
      "%%EOF",
    ].join("\n"), "latin1");
    const { extractPdfText } = await import("./dist/fetch/extract-pdf.js");
    const read = await extractPdfText(pdf, { maxChars: 10000, timeMs: 10000 });
    if (read.text !== "smoke test text") throw new Error("PDF text: " + JSON.stringify(read));
    console.log("ok  a PDF read on a reader thread");
  '
) || fail "reading a PDF"

step "stop the server"
kill "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null && status=0 || status=$?
SERVER_PID=""
[[ "$status" -eq 0 ]] || fail "the server did not exit cleanly on SIGTERM (exit $status)"

printf '\ndocker-smoke: OK (the production install builds, starts, and answers from local with no keys)\n'
