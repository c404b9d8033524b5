/**
 * Baseline for the api benchmark: a bare Fastify route answering the same JSON body from memory,
 * with no auth, no database and no plugins. What our api costs is measured against this.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const port = Number(process.env.PORT);
// The body comes in a file: a 1000-link page is larger than an environment variable may be.
const body = JSON.parse(readFileSync(process.env.BASELINE_BODY_FILE!, 'utf8'));
const app = Fastify();
app.get('/health', async () => ({ status: 'ok' }));
app.get('/api/v1/folders', async () => body);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
await app.listen({ host: '127.0.0.1', port });
