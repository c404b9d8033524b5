/**
 * Operator commands, run as `npm run --silent cli -- <command>`. Each prints exactly one JSON
 * line on stdout (so scripts can parse it); errors print one JSON line on stderr and exit 1.
 *
 *   account create --name NAME --plan starter|pro|business|enterprise
 *   account list
 *   key create --account ID --scopes all|a,b,c [--name N] [--expires-at ISO8601]
 *     (refused past API_KEYS_MAX_PER_ACCOUNT active keys of the account; prints the key and
 *     consoleUrl, the browser console to paste it into: the root of PUBLIC_API_URL's origin)
 *   key revoke --id ID
 */
import { parseArgs } from 'node:util';
import { migrateDatabase } from '../platform/database/migrate.js';
import { createDatabase } from '../domain/database.js';
import { createAccount, findAccount, listAccounts } from '../domain/accounts/accounts.js';
import { createApiKey, revokeApiKey } from '../domain/accounts/api-keys.js';
import { PLANS, type Plan } from '../domain/accounts/plans.js';
import { isScope, SCOPES, type Scope } from '../domain/accounts/scopes.js';
import { loadConfig } from '../platform/config/index.js';
import { isUuid } from '../platform/format/ids.js';
import { createRedis } from '../platform/redis/client.js';

class UsageError extends Error {}

async function main(argv: string[]): Promise<unknown> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      account: { type: 'string' },
      scopes: { type: 'string' },
      'expires-at': { type: 'string' },
      id: { type: 'string' },
    },
  });
  const command = positionals.join(' ');
  const config = loadConfig();
  await migrateDatabase(config.DATABASE_URL);
  const database = createDatabase(config.DATABASE_URL, 2);
  const { db } = database;
  try {
    switch (command) {
      case 'account create': {
        const name = required(values.name, '--name');
        const plan = required(values.plan, '--plan');
        if (!(PLANS as readonly string[]).includes(plan)) throw new UsageError(`--plan must be one of ${PLANS.join(', ')}`);
        return await createAccount(db, { name, plan: plan as Plan });
      }
      case 'account list':
        return { data: await listAccounts(db) };
      case 'key create': {
        const accountId = required(values.account, '--account');
        if (!isUuid(accountId) || !(await findAccount(db, accountId))) throw new UsageError(`no account with id ${accountId}`);
        const scopes = required(values.scopes, '--scopes')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const unknown = scopes.filter((s) => !isScope(s));
        if (scopes.length === 0 || unknown.length > 0) {
          throw new UsageError(`unknown scope ${unknown.join(', ') || '(none given)'}; scopes are ${SCOPES.join(', ')}`);
        }
        let expiresAt: Date | null = null;
        if (values['expires-at'] !== undefined) {
          expiresAt = new Date(values['expires-at']);
          if (Number.isNaN(expiresAt.getTime())) throw new UsageError('--expires-at must be an ISO 8601 date-time');
        }
        const created = await createApiKey(
          db,
          { accountId, scopes: scopes as Scope[], name: values.name ?? null, expiresAt },
          config.API_KEYS_MAX_PER_ACCOUNT,
        );
        return { ...created, consoleUrl: new URL('/', config.PUBLIC_API_URL).href };
      }
      case 'key revoke': {
        const id = required(values.id, '--id');
        if (!isUuid(id)) throw new UsageError(`no API key with id ${id}`);
        const redis = createRedis(config.REDIS_URL);
        try {
          if (!(await revokeApiKey(db, { redis, namespace: config.REDIS_NAMESPACE }, id))) throw new UsageError(`no API key with id ${id}`);
        } finally {
          redis.disconnect();
        }
        return { id, revoked: true };
      }
      default:
        throw new UsageError(`unknown command "${command}"; commands: account create, account list, key create, key revoke`);
    }
  } finally {
    await database.close();
  }
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

try {
  const result = await main(process.argv.slice(2));
  process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (err) {
  process.stderr.write(`${JSON.stringify({ error: (err as Error).message })}\n`);
  process.exit(1);
}
