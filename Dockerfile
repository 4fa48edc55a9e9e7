# ZhuJiu Arena: multi-stage image on Node 22, running as a non-root user.
# Zero-setup by default (embedded PGlite in /app/data); set DATABASE_URL for a real Postgres and the chat tokens
# (DISCORD_TOKEN / SLACK_BOT_TOKEN + SLACK_APP_TOKEN) to connect the bot. See README.md.

# Node 22 (package.json's engines: 22.12+ or 24). Build: install everything (TypeScript and the project's own
# Node, `node`, are dev dependencies; npm runs the build on the latter), compile src/ to dist/ (`npm ci` runs
# `prepare`, which is `npm run build`; it also writes the prepared embedded database, dist/pglite-template.tar.gz,
# that fills an empty /app/data/pg on the first start), then drop the dev dependencies: the image runs on its own
# Node 22.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund
# The board chart uses one weight of the CJK font (400Regular, ~10 MB); drop the other eight (~80 MB).
RUN find node_modules/@expo-google-fonts/noto-sans-sc -mindepth 1 -maxdepth 1 -type d ! -name 400Regular \
      -exec rm -rf {} +

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json package-lock.json ./
COPY bin ./bin
COPY config ./config
RUN mkdir -p /app/data && chown -R node:node /app/data
USER node
VOLUME ["/app/data"]
# 8080: health, metrics and the results page; 3000: the Slack HTTP receiver (platforms.slack.mode: http).
EXPOSE 8080 3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# JSON log lines on stderr for the container's log collector (the default is one human line per event). Outside a
# container every listener binds 127.0.0.1 by default; inside one it must listen on every interface of the
# container's own network to be reached through a published port.
ENV ZHUJIU_HTTP_HOST=0.0.0.0 ZHUJIU_SLACK_HOST=0.0.0.0 LOG_FORMAT=json
CMD ["node", "bin/zhujiu.js", "bot"]
