/** `GET /me` (any key or session) and `PATCH /me` (a person's own name; sessions only). */
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { accounts, apiKeys, memberships, PLANS, users } from '#domain/schema.js';
import type { Principal } from '#domain/accounts/api-keys.js';
import { planAllows } from '#domain/accounts/plans.js';
import { ROLES } from '#domain/people/roles.js';
import { personName, renameUser } from '#domain/people/profile.js';
import { UnauthorizedError } from '#domain/errors.js';
import { sessionOf } from '../../sign-in.js';

const account = z.object({ id: z.string(), name: z.string(), plan: z.enum(PLANS) });

const meResponse = z.object({
  account,
  key: z
    .object({
      id: z.string(),
      name: z.string().nullable(),
      scopes: z.array(z.string()).meta({ description: 'The scopes the key was given; `all` stands for every scope' }),
      expiresAt: z.string().nullable().meta({ description: 'ISO 8601; null when the key does not expire' }),
    })
    .nullable()
    .meta({ description: 'The calling key; null when a person calls from a signed-in session' }),
  user: z
    .object({ id: z.string(), email: z.string(), name: z.string().nullable(), twoFactor: z.boolean() })
    .nullable()
    .meta({ description: "The person: the session's, or the one who made the calling key; null for an operator's key" }),
  role: z.enum(ROLES).meta({ description: "The person's role in this account; an operator's key counts as the owner" }),
  scopes: z.array(z.string()).meta({ description: 'What this caller may do here: the role’s scopes, and for a key no more than its own' }),
  folderIds: z.array(z.string()).nullable().meta({ description: 'A client’s folders, the only ones it sees; null: the whole account' }),
  accounts: z
    .array(account.extend({ role: z.enum(ROLES) }))
    .meta({ description: 'Every account the person belongs to, with their role (the console’s account switcher); a key sees its own' }),
  plan: z.object({
    apiKeyManagement: z
      .boolean()
      .meta({ description: 'Whether keys can be listed, created and revoked over HTTP (/api-keys), given a key with the `all` scope' }),
  }),
  shortUrlBase: z.string().meta({ description: "Where short links live: a link's short URL is this, a slash and its slug" }),
});

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get('', {
    config: { auth: { scope: 'any' } },
    schema: {
      tags: ['account'],
      summary: 'The calling person or key, its account, role and what the plan allows',
      description:
        'Any valid key or session may ask; the console reads it after sign-in to show the account, the account switcher, and offer only what the caller can do.',
      response: { 200: meResponse },
    },
    handler: async (request) => meAnswer(app, request.principal),
  });

  app.patch('', {
    config: { auth: { scope: 'any' }, audit: { none: "a person's own name, not the account's data" } },
    schema: {
      tags: ['account'],
      summary: "Change the signed-in person's own name (an API key has no person to rename: 403)",
      body: z.strictObject({ name: personName }),
      response: { 200: meResponse },
    },
    handler: async (request) => {
      const me = sessionOf(request, 'a profile');
      await renameUser(app.ctx.db, me.userId, request.body.name);
      return meAnswer(app, request.principal);
    },
  });
};

/** The answer of `GET /me` for this caller. */
async function meAnswer(app: FastifyInstance, principal: Principal): Promise<z.infer<typeof meResponse>> {
  const { keyId, userId, accountId, role, scopes, folderIds } = principal;
  const db = app.ctx.db;
  // One query for the account, the key and the person: a key's /me costs one round trip.
  const [row] = await db
    .select({
      acc: { id: accounts.id, name: accounts.name, plan: accounts.plan },
      key: { id: apiKeys.id, name: apiKeys.name, scopes: apiKeys.scopes, expiresAt: apiKeys.expiresAt },
      user: { id: users.id, email: users.email, name: users.name, totpEnabledAt: users.totpEnabledAt },
    })
    .from(accounts)
    .leftJoin(apiKeys, keyId ? and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accounts.id)) : sql`false`)
    .leftJoin(users, userId ? eq(users.id, userId) : sql`false`)
    .where(eq(accounts.id, accountId));
  // The caller was just authenticated; only an account deleted in between leaves nothing to answer.
  if (!row) throw new UnauthorizedError();
  const { acc, key, user } = row;
  const theirs =
    user && !keyId
      ? await db
          .select({ id: accounts.id, name: accounts.name, plan: accounts.plan, role: memberships.role })
          .from(memberships)
          .innerJoin(accounts, eq(accounts.id, memberships.accountId))
          .where(eq(memberships.userId, user.id))
          .orderBy(accounts.name, accounts.id)
      : [{ ...acc, role }];
  return {
    account: acc,
    key: key ? { id: key.id, name: key.name, scopes: key.scopes, expiresAt: key.expiresAt ? key.expiresAt.toISOString() : null } : null,
    user: user ? { id: user.id, email: user.email, name: user.name, twoFactor: user.totpEnabledAt !== null } : null,
    role,
    scopes,
    folderIds: folderIds ? [...folderIds] : null,
    accounts: theirs,
    plan: { apiKeyManagement: planAllows(acc.plan, 'api-key-management') },
    shortUrlBase: app.ctx.config.SHORT_URL_BASE.replace(/\/+$/, ''),
  };
}

export default routes;
