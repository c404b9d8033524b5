/**
 * Sessions of people signed in to the console: a random token in an HttpOnly cookie, only its
 * SHA-256 in Postgres, so a session is ended at once by marking its row (sign out, "sign out
 * everywhere", a password change) and a stolen database holds no usable cookie. A session has an
 * idle end (SESSION_IDLE_MS since its last request, moved on at most once a minute) and an absolute
 * one (SESSION_MAX_AGE_MS since sign-in).
 *
 * A request's session is resolved by one prepared query that also reads the person's membership
 * of the session's account, so a role changed or a membership removed counts at the next request.
 * Accepted sessions are held in memory only while this process hears people changes over Redis
 * (`SessionAuthenticator.listen`), like API keys: every change that can make a held answer wrong
 * (sign-out, role, membership, password) announces the user, and each process drops what it holds
 * of that user.
 */
import { and, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import { preparedQuery, type Database } from '../database.js';
import { accounts, memberships, sessions } from '../schema.js';
import { throttledWarning, type Logger } from '#platform/logger.js';
import type { Invalidations } from '#platform/redis/invalidations.js';
import { announceChanges, HeldWhileSubscribed } from '#platform/redis/held-while-subscribed.js';
import type { KeyChangeAnnouncer, Principal } from '../accounts/api-keys.js';
import { roleScopes } from './roles.js';
import { isLinkToken, hashLinkToken, newLinkToken } from './tokens.js';

export interface SessionLimits {
  idleMs: number;
  maxAgeMs: number;
}

export interface NewSession {
  userId: string;
  accountId: string;
  ip: string | null;
  userAgent: string | null;
}

export async function startSession(db: Database, input: NewSession, limits: SessionLimits) {
  // The cookie carries the same kind of token as a mailed link: 256 random bits, only their hash stored.
  const { token, tokenHash } = newLinkToken();
  const expiresAt = new Date(Date.now() + limits.maxAgeMs);
  const [row] = await db
    .insert(sessions)
    .values({
      tokenHash,
      userId: input.userId,
      accountId: input.accountId,
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, 300) ?? null,
      expiresAt,
    })
    .returning({ id: sessions.id });
  return { id: row!.id, token, expiresAt };
}

/** Ends one session of this user; false when it is not theirs or already ended. */
export async function endSession(db: Database, announcer: KeyChangeAnnouncer, userId: string, sessionId: string): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  await announcePeopleChanges(announcer, [userId]);
  return rows.length > 0;
}

/** Ends every session of the user but `keepId` (none kept when null). Returns how many ended. */
export async function endOtherSessions(
  db: Database,
  announcer: KeyChangeAnnouncer,
  userId: string,
  keepId: string | null,
): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keepId ? ne(sessions.id, keepId) : undefined))
    .returning({ id: sessions.id });
  await announcePeopleChanges(announcer, [userId]);
  return rows.length;
}

/** The user's live sessions, newest first, for "where am I signed in". */
export async function listSessions(db: Database, userId: string) {
  return db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      ip: sessions.ip,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), sql`${sessions.expiresAt} > now()`))
    .orderBy(desc(sessions.createdAt));
}

/** Moves the session to another account of the user's; false when the user is not a member of it. */
export async function switchSessionAccount(
  db: Database,
  announcer: KeyChangeAnnouncer,
  session: { id: string; userId: string },
  accountId: string,
): Promise<boolean> {
  const [member] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, session.userId), eq(memberships.accountId, accountId)));
  if (!member) return false;
  await db.update(sessions).set({ accountId }).where(eq(sessions.id, session.id));
  await announcePeopleChanges(announcer, [session.userId]);
  return true;
}

/** Where api processes hear of people whose sessions or keys changed (the payload is a user id). */
export function peopleChannel(namespace: string): string {
  return `${namespace}:people:changed`;
}

/** Tells every api process to forget what it holds of these users' sessions. */
export async function announcePeopleChanges(announcer: KeyChangeAnnouncer, userIds: readonly string[]): Promise<void> {
  await announceChanges(announcer, peopleChannel(announcer.namespace), userIds, 'People change');
}

interface HeldSession {
  principal: Principal;
  /** The session's idle and absolute ends as held, checked on every request. */
  idleUntil: number;
  expiresAt: number;
  lastSeenAt: number;
  freshUntil: number;
}

const lastSeenNotWritten = throttledWarning("a session's lastSeenAt was not updated");
const LAST_SEEN_RESOLUTION_MS = 60_000;

/**
 * Resolves cookie tokens to principals (the person, their role in the session's account and what
 * it lets them do), holding accepted ones for a few seconds while subscribed to people changes.
 */
export class SessionAuthenticator {
  private readonly accepted = new HeldWhileSubscribed<HeldSession>(10_000, 'all');

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly limits: SessionLimits,
    private readonly heldMs = 10_000,
  ) {}

  /** A change names a user, whom held entries cannot be found by: any change forgets them all (rare; entries live seconds). */
  async listen(invalidations: Invalidations, namespace: string, waitMs = 2000): Promise<void> {
    await this.accepted.listen(invalidations, peopleChannel(namespace), waitMs);
  }

  /** The session's principal, or null when the token is unknown, ended, idle too long, past its end, or its membership is gone. */
  async authenticate(token: string): Promise<Principal | null> {
    if (!isLinkToken(token)) return null;
    const tokenHash = hashLinkToken(token);
    const now = Date.now();
    const held = this.accepted.get(tokenHash);
    if (held && held.freshUntil > now) {
      if (held.expiresAt <= now || held.idleUntil <= now) return null;
      this.touch(held.principal.sessionId!, held, now);
      return held.principal;
    }
    const ticket = this.accepted.ticket();
    const [row] = await sessionLookup(this.db).execute({ tokenHash });
    if (!row || row.revokedAt || !row.role) return null;
    const lastSeenAt = row.lastSeenAt.getTime();
    const entry: HeldSession = {
      principal: {
        keyId: null,
        sessionId: row.sessionId,
        userId: row.userId,
        accountId: row.accountId,
        plan: row.plan,
        role: row.role,
        scopes: roleScopes(row.role, row.clientAccess),
        folderIds: row.role === 'client' ? (row.folderIds ?? []) : null,
      },
      idleUntil: lastSeenAt + this.limits.idleMs,
      expiresAt: row.expiresAt.getTime(),
      lastSeenAt,
      freshUntil: now + this.heldMs,
    };
    if (entry.expiresAt <= now || entry.idleUntil <= now) return null;
    this.touch(row.sessionId, entry, now);
    this.accepted.keep(ticket, tokenHash, entry);
    return entry.principal;
  }

  /** Moves the idle end on, writing at most once a minute and never on the request's path. */
  private touch(sessionId: string, entry: HeldSession, now: number): void {
    if (now - entry.lastSeenAt < LAST_SEEN_RESOLUTION_MS) return;
    entry.lastSeenAt = now;
    entry.idleUntil = now + this.limits.idleMs;
    void this.db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.id, sessionId))
      .catch((err: unknown) => lastSeenNotWritten(this.logger, err, { sessionId }));
  }
}

const sessionLookup = preparedQuery((db) =>
  db
    .select({
      sessionId: sessions.id,
      userId: sessions.userId,
      accountId: sessions.accountId,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
      plan: accounts.plan,
      role: memberships.role,
      clientAccess: memberships.clientAccess,
      folderIds: memberships.folderIds,
    })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .leftJoin(memberships, and(eq(memberships.accountId, sessions.accountId), eq(memberships.userId, sessions.userId)))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .prepare('session_lookup'),
);
