# syntax=docker/dockerfile:1
# Two stages: the first builds client and server with all dependencies, the second runs the built
# files with production dependencies only, as the unprivileged `node` user.
# scripts/docker-dry-run.mjs replays these steps without Docker (npm run docker:dry-run); keep
# both in step.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=5000 DATA_DIR=/data
WORKDIR /app
# Only the packages the build left external (PGlite, sharp, nodemailer, the S3 client): the rest is
# in dist/. The build's manifest lists them at its versions; the lockfile pins what they need.
COPY package-lock.json ./
COPY --from=build /app/dist/package.runtime.json ./package.json
# The npm cache lives in a build cache mount, not in the image.
RUN --mount=type=cache,target=/root/.npm npm install --omit=dev --no-audit --no-fund
COPY --from=build /app/dist ./dist
COPY config ./config
# The share image's font (server/modules/share): the slim base image has no fonts of its own.
COPY server/assets/fonts ./server/assets/fonts
COPY drizzle ./drizzle
# The embedded database's first start runs initdb in a child process from this script.
COPY scripts/pglite-init.mjs ./scripts/
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 5000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Stack traces name the TypeScript sources (dist/*.js.map).
CMD ["node", "--enable-source-maps", "dist/server.js"]
