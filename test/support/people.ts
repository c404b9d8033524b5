/**
 * People for tests, made the way the CLI and invitations make them (domain/people), and signed in
 * through the real `POST /api/v1/sessions`: what the console's cookie is.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { AppContext } from '#infra/context.js';
import { call } from './harness.js';
import { addMembership, createUser } from '#domain/people/users.js';
import type { ClientAccess, Role } from '#domain/people/roles.js';

let counter = 0;

export interface TestPerson {
  userId: string;
  email: string;
  password: string;
}

/** A person in the account with the role (a client with its folders). */
export async function createTestPerson(
  ctx: AppContext,
  accountId: string,
  role: Role,
  opts: { email?: string; password?: string; name?: string; clientAccess?: ClientAccess; folderIds?: string[] } = {},
): Promise<TestPerson> {
  const email = opts.email ?? `person-${process.pid}-${Date.now()}-${++counter}@example.com`;
  const password = opts.password ?? 'a long enough test password';
  const user = await createUser(ctx.db, { email, password, name: opts.name ?? null });
  await addMembership(ctx.db, { accountId, userId: user.id, role, clientAccess: opts.clientAccess, folderIds: opts.folderIds });
  return { userId: user.id, email, password };
}

/** Signs in through the api; the session cookie (`qrlinks_session=…`) to send back. Throws unless 200. */
export async function signIn(app: FastifyInstance, email: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed ${res.statusCode}: ${res.body}`);
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  return cookie;
}

/** A request as the console makes it: the cookie, and the browser's same-origin header on writes. */
export function callAs(
  app: FastifyInstance,
  cookie: string,
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return call(app, null, method, url, body, { cookie, 'sec-fetch-site': 'same-origin', ...headers });
}
