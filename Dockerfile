# akira-mm: one container per trading account. By default one pair, configured by one env file
# mounted at /config/pair.env; several pairs of one account: mount their files and pass
# `run --env /config/A.env --env /config/B.env … --metrics-host 0.0.0.0 --state-dir /state`
# (docker-compose.yml does).
#   docker build -t akira-mm .
#   docker run --rm -v "$PWD/config/ETH-USDC.env:/config/pair.env:ro" -p 9464:9464 akira-mm
# The same image runs the remote signer (`akira-mm signer serve`) as user `signer`: see
# docker-compose.yml, where daemons hold no key and reach the signer over a shared socket volume.
# Stage 1 installs the exact dependency tree from package-lock.json; stage 2 copies only what runs
# (bin/, src/, strategies/, config/): fault campaigns and soak runs (tools/), tests and benchmarks stay out.
# Node 26, the active LTS line (20 is past its end of life; the suite runs on 20, 22 and 26 in CI).
FROM node:26-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:26-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY src ./src
COPY strategies ./strategies
COPY config ./config
# The signer's own user; `node` (the daemon) joins its group so it may connect to a socket of
# mode 0660 and nothing else of the signer's. The socket directory is the signer's, group-readable
# only: a named volume mounted there starts with this owner and mode.
RUN groupadd --gid 10001 signer \
 && useradd --uid 10001 --gid signer --no-create-home --shell /usr/sbin/nologin signer \
 && usermod --append --groups signer node \
 && mkdir -p /run/akira-signer \
 && chown signer:signer /run/akira-signer \
 && chmod 0750 /run/akira-signer
# The compiled copy of the sources (bin/compiled-sources.js), built now: the daemon then runs
# without tsx's loader thread (~25 MB less RSS) even on a read-only root filesystem.
RUN node bin/akira-mm.js --help > /dev/null && mkdir -p /state && chown node:node /state
USER node
EXPOSE 9464
# SIGTERM (docker stop) cancels every order and waits for the venue to confirm before exiting.
STOPSIGNAL SIGTERM
# Healthy while /health answers 200 (quoting); 503 (paused, halted, starting) or no answer is
# unhealthy. The image has no curl: Node's own fetch asks. The port is METRICS_PORT's default.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.METRICS_PORT || 9464) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/akira-mm.js"]
# Metrics must be reachable from outside the container, hence --metrics-host. /state holds the
# crash journal and the account lock: mount a volume there to keep them across containers.
CMD ["run", "--env", "/config/pair.env", "--metrics-host", "0.0.0.0", "--state-dir", "/state"]
