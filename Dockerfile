# syntax=docker/dockerfile:1
# Production image: `docker build -t rewards .` then
# `docker run -p 3000:3000 --env-file .env rewards` (variables in docs/configuration.md and .env.example).

# The exact Node release the tests run on (package.json's `node` dev dependency). A release pins
# its digest too, `FROM node:22.23.3-slim@sha256:<digest> AS base` (docs/operations.md, "Deploying
# the Docker image"), so a re-pushed tag cannot change what is built.
FROM node:22.23.3-slim AS base
WORKDIR /app

# `npm install` with the committed lockfile rather than `npm ci`: the lockfile was made against a
# registry mirror that lacks other platforms' optional native packages, which `npm ci` rejects.
# Versions still come from package-lock.json.

# Everything needed to build (dev dependencies included).
FROM base AS build
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

# Production dependencies only.
FROM base AS prod-deps
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force

FROM base AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    PGLITE_DATA_DIR=/app/.data/pglite
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/supabase/migrations ./supabase/migrations
# The embedded database (used only when neither DATABASE_URL nor SUPABASE_URL is set) needs a writable place.
RUN mkdir -p /app/.data && chown node:node /app/.data
VOLUME ["/app/.data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=40s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The operator commands are in the build too: `docker exec <container> node build/payouts.js list`,
# `docker exec <container> node build/walls.js log --refused`,
# and `docker run --rm -e DATABASE_URL=... <image> node build/migrate.js` for deployments that apply
# the migrations as a step of their own and run the servers with MIGRATE_ON_START=false.
CMD ["node_modules/.bin/remix-serve", "build/index.js"]
