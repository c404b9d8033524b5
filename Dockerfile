# One image for every role; the command picks the role (api, redirect or worker).
# Two stages (decision 0423): the build stage has every dependency and compiles; the image is the
# runtime stage, with the production dependencies only and what the build stage made copied in.

# --- build: every dependency (esbuild, Vite and the console's browser packages are development
# dependencies), then every role compiled to plain JavaScript in dist/ (scripts/build.mjs), the
# browser console the api serves at / (console/dist, console/build.ts), and the geo table every role
# reads (node_modules/.cache/qrlinks, platform/geo/geo-table-build.ts), so no container builds its own.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN node scripts/build.mjs

# --- runtime: the production dependencies, the sources (files found beside a module, such as the
# migrations in db/, are read from them; `npm run cli` checks dist/ against them) and the build.
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY . .
# After npm ci, which empties node_modules; the table is named by the DB-IP package's version,
# the same in both stages (one lock file).
COPY --from=build /app/dist ./dist
COPY --from=build /app/console/dist ./console/dist
COPY --from=build /app/node_modules/.cache/qrlinks ./node_modules/.cache/qrlinks
# Scans a redirect process could not hand to Redis at shutdown are spooled here (a volume in compose);
# secrets the service makes itself (the password cookie's) are kept in data/secrets (a shared volume in compose).
RUN mkdir -p /app/data/scan-spool /app/data/secrets && chmod 700 /app/data/secrets && chown -R node:node /app/data
USER node
EXPOSE 3000 3001
# node runs as PID 1 directly (not npm) so SIGTERM reaches the server and it drains; the compiled
# role, no TypeScript loader, with the flags platform/process/role-runtime.ts gives the api
# (compose runs the other roles with theirs).
# Source maps are in dist/; NODE_OPTIONS=--enable-source-maps maps stack traces to the sources
# (at ~17 MB of heap a process).
CMD ["node", "--max-semi-space-size=1", "--max-old-space-size=512", "dist/api/server.js"]
