# One image for every role; the command picks the role (api, redirect or worker).
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
# Every role compiled to plain JavaScript in dist/ (scripts/build.mjs, esbuild), and the browser
# console the api serves at / (console/build.ts; esbuild and Vite are production dependencies for this),
# and the geo table every role reads (platform/geo/geo-table-build.ts), so no container builds its own.
RUN node scripts/build.mjs
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
