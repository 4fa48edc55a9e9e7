# ZhuJiu Arena: multi-stage image on Node 22, running as a non-root user.
# Zero-setup by default (embedded PGlite in /app/data); set DATABASE_URL for a real Postgres and the chat tokens
# (DISCORD_TOKEN / SLACK_BOT_TOKEN + SLACK_APP_TOKEN) to connect the bot. See README.md.

FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY bin ./bin
COPY src ./src
COPY migrations ./migrations
COPY config ./config
RUN mkdir -p /app/data && chown -R node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENV ZHUJIU_HTTP_HOST=0.0.0.0
CMD ["npm", "start"]
