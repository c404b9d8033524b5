# One image for every role; the command picks the role (api, redirect or worker).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
# The browser console the api serves at / (console/build.ts; Vite is a production dependency for this).
RUN node --import tsx console/build.ts
# Scans a redirect process could not hand to Redis at shutdown are spooled here (a volume in compose);
# secrets the service makes itself (the password cookie's) are kept in data/secrets (a shared volume in compose).
RUN mkdir -p /app/data/scan-spool /app/data/secrets && chmod 700 /app/data/secrets && chown -R node:node /app/data
USER node
EXPOSE 3000 3001
# node runs as PID 1 directly (not npm) so SIGTERM reaches the server and it drains.
CMD ["node", "--import", "tsx", "api/server.ts"]
