/**
 * Builds the real api (no mocks) on the test database, Redis and storage, and makes accounts
 * and keys the way an operator would, through the same functions the CLI calls.
 */
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { pino, type Logger } from 'pino';
import { buildApiApp } from '#api/app.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { createApiKey, type KeyChangeAnnouncer } from '#domain/accounts/api-keys.js';
import type { Plan } from '#domain/accounts/plans.js';
import type { Scope } from '#domain/accounts/scopes.js';
import { loadConfig } from '#platform/config/index.js';
import { closeContext, createContext } from '#infra/context.js';
import type { AppContext } from '#infra/context.js';

export interface TestApi {
  app: FastifyInstance;
  ctx: AppContext;
  close(): Promise<void>;
}

export async function startTestApi(overrides: Record<string, string> = {}): Promise<TestApi> {
  const config = loadConfig({ ...process.env, ...overrides });
  const ctx = await createContext(config, 'api-test', config.LOG_LEVEL === 'silent' ? unhandledErrorsOnly() : undefined);
  const app = await buildApiApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    close: () => closeTestApi(app, ctx),
  };
}

/**
 * The logger of a test api whose logs are otherwise silent: no test expects a 500, so the stack of
 * each one (the error handler's 'unhandled error' line) goes to stderr, where vitest shows it beside
 * the test that got it. Without it a CI log says only that a request answered 500.
 */
function unhandledErrorsOnly(): Logger {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.includes('"msg":"unhandled error"')) process.stderr.write(`test api: 500 answered: ${line}\n`);
      }
      done();
    },
  });
  return pino({ level: 'error' }, sink);
}

/** How long a test api's close waits for requests still in flight before it cuts their connections. */
const CLOSE_GRACE_MS = 10_000;

/**
 * Closes the app, then its context. A request still waiting when the tests end (a render queued
 * behind a flood, with a render timeout no test reaches) would hold app.close() until it ends; it
 * gets CLOSE_GRACE_MS, then its connection is cut, so an afterAll never outlasts its hook timeout.
 */
async function closeTestApi(app: Awaited<ReturnType<typeof buildApiApp>>, ctx: Awaited<ReturnType<typeof createContext>>): Promise<void> {
  const closed = app.close();
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), CLOSE_GRACE_MS)));
  const late = await Promise.race([closed.then(() => false), graceOver]);
  clearTimeout(timer);
  if (late) {
    console.warn(`test api: requests still in flight ${CLOSE_GRACE_MS / 1000} s after close; cutting their connections`);
    app.server.closeAllConnections();
    // Their handlers end when the context below closes the renderer and the pools they wait on.
  }
  await closeContext(ctx);
  if (late) await Promise.race([closed.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())]);
}

/** Starts the api listening on a random loopback port, for tests over real HTTP: its origin. */
export async function listenOnLoopback(api: TestApi): Promise<string> {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const address = api.app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/** How the api itself announces key changes (revocations) to every api process. */
export function announcerOf(api: TestApi): KeyChangeAnnouncer {
  return { redis: api.ctx.redis, namespace: api.ctx.config.REDIS_NAMESPACE, logger: api.ctx.logger };
}

export interface TestAccount {
  accountId: string;
  key: string;
  keyId: string;
}

let counter = 0;
export async function createTestAccount(
  ctx: AppContext,
  /** `name`: one a person would give, where a screenshot shows it. */
  opts: { plan?: Plan; scopes?: Scope[]; expiresAt?: Date; name?: string } = {},
): Promise<TestAccount> {
  const account = await createAccount(ctx.db, { name: opts.name ?? `test-${process.pid}-${++counter}`, plan: opts.plan ?? 'pro' });
  const { id, key } = await createApiKey(
    ctx.db,
    { accountId: account.id, scopes: opts.scopes ?? ['all'], expiresAt: opts.expiresAt ?? null },
    ctx.config.API_KEYS_MAX_PER_ACCOUNT,
  );
  return { accountId: account.id, key, keyId: id };
}

export async function addKey(ctx: AppContext, accountId: string, scopes: Scope[], expiresAt?: Date) {
  return createApiKey(ctx.db, { accountId, scopes, expiresAt: expiresAt ?? null }, ctx.config.API_KEYS_MAX_PER_ACCOUNT);
}

/** A JSON request with the given key; the body is sent as JSON when it is an object. */
export function call(
  app: FastifyInstance,
  key: string | null,
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: { ...(key ? { authorization: `Basic ${key}` } : {}), ...headers },
    ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}),
  });
}

/**
 * Creates a link through POST /links with the account's key (throws unless 200): its slug (the
 * API's id) and its database id. A website link when no body is given.
 */
export async function createLinkVia(
  app: FastifyInstance,
  key: string,
  body: Record<string, unknown> = { name: 'Link', type: 'website', data: { url: 'https://example.com/' } },
): Promise<{ slug: string; id: string }> {
  const res = await call(app, key, 'POST', '/api/v1/links', body);
  if (res.statusCode !== 200) throw new Error(`create failed ${res.statusCode}: ${res.body}`);
  const slug = res.json().id as string;
  const { rows } = await app.ctx.database.pool.query<{ id: string }>('select id from links where slug = $1', [slug]);
  return { slug, id: rows[0]!.id };
}

/** Postgres connections the app checks out while `work` runs (a key lookup is one). */
export async function checkoutsDuring(app: TestApi, work: () => Promise<unknown>): Promise<number> {
  let acquired = 0;
  const count = () => acquired++;
  app.ctx.database.pool.on('acquire', count);
  try {
    await work();
  } finally {
    app.ctx.database.pool.off('acquire', count);
  }
  return acquired;
}
