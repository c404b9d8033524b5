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
 *   user create --email E --password P --account ID --role owner|admin|editor|viewer|client [--name N]
 *     (a new person, a member of the account with the role; a client sees no folder until given some)
 *   user reset-password --email E [--password P]
 *     (with --password: sets it and ends their sessions; without: prints a one-time reset link, 30 min)
 *   setup-link
 *     (while nobody signs in here: a fresh one-time link to make the first owner and account; older
 *     links stop working. Once someone exists: says setup is done)
 */
import { parseArgs } from 'node:util';
import { migrateDatabase } from '#platform/database/migrate.js';
import { createDatabase } from '#infra/database.js';
import { createAccount, findAccount, listAccounts } from '#domain/accounts/accounts.js';
import { createApiKey, revokeApiKey, type KeyChangeAnnouncer } from '#domain/accounts/api-keys.js';
import { PLANS, type Plan } from '#domain/accounts/plans.js';
import { isScope, SCOPES, type Scope } from '#domain/accounts/scopes.js';
import { loadConfig, type Config } from '#platform/config/index.js';
import { isUuid } from '#platform/format/ids.js';
import { createRedis } from '#platform/redis/client.js';
import { ROLES, type Role } from '#domain/people/roles.js';
import { addMembership, createUser } from '#domain/people/users.js';
import { setPassword } from '#domain/people/operator.js';
import { startPasswordReset } from '#domain/people/reset-password.js';
import { issueSetupToken } from '#domain/people/setup.js';
import { consoleLink } from '#domain/people/tokens.js';
import { AppError } from '#domain/errors.js';

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
      email: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
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
        if (!(await withAnnouncer(config, (announcer) => revokeApiKey(db, announcer, id))))
          throw new UsageError(`no API key with id ${id}`);
        return { id, revoked: true };
      }
      case 'user create': {
        const email = required(values.email, '--email');
        const password = required(values.password, '--password');
        const accountId = required(values.account, '--account');
        const role = required(values.role, '--role');
        if (!(ROLES as readonly string[]).includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
        if (!isUuid(accountId) || !(await findAccount(db, accountId))) throw new UsageError(`no account with id ${accountId}`);
        const user = await db.transaction(async (tx) => {
          const created = await createUser(tx, { email, password, name: values.name ?? null });
          await addMembership(tx, { accountId, userId: created.id, role: role as Role });
          return created;
        });
        return { id: user.id, email: user.email, name: user.name, accountId, role };
      }
      case 'user reset-password': {
        const email = required(values.email, '--email');
        if (values.password !== undefined) {
          const password = values.password;
          if (!(await withAnnouncer(config, (announcer) => setPassword(db, announcer, email, password))))
            throw new UsageError(`no user with email ${email}`);
          return { email, passwordSet: true, sessionsEnded: true };
        }
        const reset = await startPasswordReset(db, email);
        if (!reset) throw new UsageError(`no user with email ${email}`);
        return { email, link: consoleLink(config.PUBLIC_API_URL, 'reset-password', reset.token), expiresAt: reset.expiresAt.toISOString() };
      }
      case 'setup-link': {
        const token = await issueSetupToken(db);
        if (!token) return { setupDone: true, message: 'Setup is done: someone signs in here already; invite people from the console' };
        return { link: consoleLink(config.PUBLIC_API_URL, 'setup', token) };
      }
      default:
        throw new UsageError(
          `unknown command "${command}"; commands: account create, account list, key create, key revoke, user create, user reset-password, setup-link`,
        );
    }
  } finally {
    await database.close();
  }
}

/** Runs `work` with a Redis connection that tells every api process what changed. */
async function withAnnouncer<T>(config: Config, work: (announcer: KeyChangeAnnouncer) => Promise<T>): Promise<T> {
  const redis = createRedis(config.REDIS_URL);
  try {
    return await work({ redis, namespace: config.REDIS_NAMESPACE });
  } finally {
    redis.disconnect();
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
  // A domain refusal (a taken address, a weak password) says its code and the fields it names.
  const body = err instanceof AppError ? { error: err.message, ...err.body } : { error: (err as Error).message };
  process.stderr.write(`${JSON.stringify(body)}\n`);
  process.exit(1);
}
