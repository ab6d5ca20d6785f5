# fedsearch: build with every dependency, run with production dependencies only, as a non-root user.
# scripts/docker-smoke.sh reproduces these steps where no Docker engine runs; keep the two in step.

ARG NODE_IMAGE=node:22-bookworm-slim

# ---- build: compile TypeScript, then drop dev dependencies ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Manifests first, so the dependency layer is reused while only sources change.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && npm cache clean --force

# ---- runtime: compiled code, production node_modules, the default local index ----
FROM ${NODE_IMAGE} AS runtime
# A young generation of up to 32 MiB per semi-space (V8's default is 16): under load a search's objects
# live through its upstream wait, and in the default size most of them survived two scavenges and were
# copied into the old generation; in the larger one most die young. About a tenth less CPU per search at 256
# connections (docs/benchmarks.md, twelfth round). NODE_OPTIONS, so a deployment can set its own.
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    NODE_OPTIONS=--max-semi-space-size=32
WORKDIR /app
# Owned by root and only readable by the service user: the running process cannot rewrite its own code.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# docs/ is the embedded `local` provider's default index (LOCAL_INDEX_DIR); mount another folder to replace it.
COPY docs ./docs
# public/ is the search page at / (plain HTML, CSS and ES modules: nothing to build).
COPY public ./public
# The base image's `node` user, by number: Kubernetes' runAsNonRoot can only verify a numeric user (a name
# would have to be looked up in the image, so the kubelet refuses to start the pod). Docker sees the same.
USER 1000:1000
EXPOSE 8080
# Probes the liveness route at the address HOST names (127.0.0.1 for 0.0.0.0 or ::): a service told to listen
# on one address only does not answer on 127.0.0.1. Node's own fetch: slim images have no curl (src/healthcheck.ts).
# Docker probes first after one interval, so the interval is how long a started container waits to be healthy
# (CapRover, compose's `condition: service_healthy`). --start-interval would shorten only the start, but engines
# before Docker 25 (Debian's docker.io 20.10 among them) refuse the whole Dockerfile over it: a short interval
# instead, and retries that keep the old tolerance (about 90 s of failed probes before "unhealthy"). Each probe is a
# short node process (about 0.1 s of CPU): every 10 s rather than 5 keeps that small on a small server.
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=9 \
  CMD ["node", "dist/healthcheck.js"]
# node itself is PID 1 and handles SIGTERM (src/server.ts closes with grace); no shell in between.
CMD ["node", "dist/server.js"]
