/**
 * Second baseline for the api benchmark: a bare Fastify route that reads an account's folders
 * from Postgres on every request (one named prepared statement through pg, the same query and
 * order as the api's) and answers the rows as JSON: no auth, no ORM, no schemas, no plugins. What
 * one database round trip costs a request on this machine, whoever makes it.
 */
import Fastify from 'fastify';
import pg from 'pg';

const port = Number(process.env.PORT);
const accountId = process.env.BASELINE_ACCOUNT_ID!;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const query = {
  name: 'baseline_folder_list',
  text: 'select * from folders where account_id = $1 order by created_at desc, id desc',
  values: [accountId],
};
const app = Fastify();
app.get('/health', async () => ({ status: 'ok' }));
app.get('/api/v1/folders', async () => ({ data: (await pool.query(query)).rows }));
process.once('SIGTERM', () => void app.close().then(() => pool.end().then(() => process.exit(0))));
await app.listen({ host: '127.0.0.1', port });
