/**
 * What a request with millions of problems costs the api: POST /bulk-generate with a CSV header of
 * BENCH_ERROR_COLUMNS (default 5,000,000 and 12,000,000) empty, so unknown, columns, and a JSON body
 * whose one record has 800,000 unknown members; against a valid two-row CSV checked with
 * ?dryRun=true as the baseline. Each case runs in an api process of its own, so its peak resident
 * memory (/proc VmHWM, Linux only) is that request's; a GET /folders first warms it up. Reports
 * the status, the answer's size and the time to the whole answer.
 */
import { createDatabase } from '#infra/database.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { createApiKey } from '#domain/accounts/api-keys.js';
import { multipart } from '../test/support/fixtures.js';
import { freshDatabase, printTable, procStatusMb, startBenchApi, stopProcess } from './support.js';

const COLUMNS = (process.env.BENCH_ERROR_COLUMNS ?? '5000000,12000000').split(',').map(Number);
const JSON_KEYS = Number(process.env.BENCH_ERROR_JSON_KEYS ?? 800_000);

interface Case {
  name: string;
  body: Buffer;
  contentType: string;
  query?: string;
}

function csvCase(name: string, csv: Buffer, query?: string): Case {
  const form = multipart([
    { name: 'type', data: 'website' },
    { name: 'file', data: csv, filename: 'batch.csv', contentType: 'text/csv' },
  ]);
  return { name, body: form.body, contentType: form.contentType, query };
}

/** `{type, data: [{name, url, <keys> unknown members}]}`, written as text: no object of 800,000 members here. */
function unknownKeysBody(keys: number): Buffer {
  const members = Array.from({ length: keys }, (_, i) => `"${i.toString(36)}":0`).join(',');
  return Buffer.from(`{"type":"website","data":[{"name":"a","url":"https://example.com/",${members}}]}`);
}

export async function benchErrorLists(): Promise<string> {
  const DATABASE_URL = await freshDatabase('error_lists');
  const database = createDatabase(DATABASE_URL, 2);
  const account = await createAccount(database.db, { name: 'bench-error-lists', plan: 'pro' });
  const { key } = await createApiKey(database.db, { accountId: account.id, scopes: ['all'] });
  await database.close();

  const cases: Case[] = [
    csvCase(
      'valid 2-row CSV, ?dryRun=true (baseline)',
      Buffer.from('name,url\nA,https://example.com/a\nB,https://example.com/b\n'),
      '?dryRun=true',
    ),
    // `name,url` and then one empty column per comma, every one unknown; no rows (a row with fewer
    // cells would be refused by the parser before the header is checked).
    ...COLUMNS.map((n) =>
      csvCase(
        `CSV header of ${n.toLocaleString('en')} unknown columns`,
        Buffer.concat([Buffer.from('name,url'), Buffer.alloc(n, ','), Buffer.from('\n')]),
      ),
    ),
    {
      name: `JSON record with ${JSON_KEYS.toLocaleString('en')} unknown members`,
      body: unknownKeysBody(JSON_KEYS),
      contentType: 'application/json',
    },
  ];
  const rows: Array<Array<string | number>> = [];
  for (const c of cases) {
    const api = await startBenchApi(DATABASE_URL);
    try {
      // A first request pays for the key check's cache, JIT and connections: not the case's cost.
      await (await fetch(`${api.origin}/api/v1/folders`, { headers: { authorization: `Basic ${key}` } })).arrayBuffer();
      const start = performance.now();
      let answer: string;
      try {
        const res = await fetch(`${api.origin}/api/v1/bulk-generate${c.query ?? ''}`, {
          method: 'POST',
          headers: { authorization: `Basic ${key}`, 'content-type': c.contentType },
          body: new Uint8Array(c.body),
        });
        const bytes = (await res.arrayBuffer()).byteLength;
        answer = `${res.status}, ${bytes < 1e6 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1e6).toFixed(0)} MB`}`;
      } catch (err) {
        answer = `no answer (${(err as Error).message}; api exit ${api.child.exitCode ?? api.child.signalCode ?? 'none'})`;
      }
      const ms = performance.now() - start;
      const peak =
        api.child.exitCode === null && api.child.signalCode === null ? (await procStatusMb(api.child.pid!, 'VmHWM')).toFixed(0) : 'crashed';
      rows.push([c.name, `${(c.body.length / 1e6).toFixed(1)} MB`, answer, ms.toFixed(0), peak]);
    } finally {
      await stopProcess(api.child);
    }
  }
  return printTable(
    'error lists: one bad request, each in a fresh api',
    ['request', 'body', 'status, answer', 'time (ms)', 'api peak RSS (MB)'],
    rows,
  );
}
