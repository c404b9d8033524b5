/**
 * Configuration comes from environment variables only, validated once at start-up. Every
 * variable has a default that runs the whole service on one machine (`npm start`), so a fresh
 * install needs no .env; production overrides what it must.
 */
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { isCidrList, parseAddress } from '../net/ip-ranges.js';

/** Active keys an account may hold unless the operator says otherwise (API_KEYS_MAX_PER_ACCOUNT). */
export const DEFAULT_MAX_ACTIVE_API_KEYS = 100;

/** domain/accounts/plans.ts's plans (the platform layer does not import the domain). */
const PLAN_NAMES = ['starter', 'pro', 'business', 'enterprise'] as const;

const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) => {
  const message = max === Number.MAX_SAFE_INTEGER ? `must be a whole number >= ${min}` : `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
};
const port = (fallback: number) => wholeNumber(1, 65535).default(fallback);
const positiveInt = (fallback: number) => wholeNumber(1).default(fallback);
const url = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine((v) => URL.canParse(v), 'must be a URL');
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

const envSchema = z
  .object({
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: port(3000),
    REDIRECT_PORT: port(3001),
    /** The worker's metrics listener (GET /metrics); 0: none. */
    WORKER_METRICS_PORT: wholeNumber(0, 65535).default(3002),
    /** When set, GET /metrics of every role wants `Authorization: Bearer <it>`; unset, /metrics is open. */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** Where the api is reached from outside; used in links it hands out (job status URLs). */
    PUBLIC_API_URL: url('http://localhost:3000/api/v1'),
    SHORT_URL_BASE: url('http://localhost:3001'),
    DATABASE_URL: url('postgres://postgres@127.0.0.1:5432/qrlinks'),
    DATABASE_POOL_SIZE: positiveInt(10),
    /**
     * The api's and the redirect's longest statement (half of it: their longest wait for a
     * connection): past it Postgres cancels the statement, or (a server that answers nothing) the
     * connection is cut 200 ms later, and the request is a 503 with Retry-After instead of a wait.
     */
    DATABASE_QUERY_TIMEOUT_MS: wholeNumber(100).default(1000),
    /** A worker's longest statement (a batch of scans, an export's COPY, a sweep); 0: none. */
    DATABASE_WORK_TIMEOUT_MS: wholeNumber(0).default(600_000),
    /** Apply migrations before serving (npm start does); roles in production may leave it to `npm run db:migrate`. */
    MIGRATE_ON_START: bool(true),
    REDIS_URL: url('redis://127.0.0.1:6379'),
    /** Prefix of every Redis key the install writes (queues, caches, limits, previews), so several installs (or test runs) can share one Redis. */
    REDIS_NAMESPACE: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only')
      .default('qrlinks'),
    STORAGE_DRIVER: z.enum(['fs', 's3']).default('fs'),
    STORAGE_DIR: z.string().min(1).default('./data/files'),
    S3_ENDPOINT: z
      .string()
      .refine((v) => URL.canParse(v), 'must be a URL')
      .optional(),
    S3_ACCESS_KEY: z.string().min(1).optional(),
    S3_SECRET_KEY: z.string().min(1).optional(),
    S3_BUCKET: z.string().min(3).default('qrlinks'),
    S3_REGION: z.string().min(1).default('us-east-1'),
    BODY_LIMIT_BYTES: positiveInt(1024 * 1024),
    FILE_SIZE_LIMIT_BYTES: positiveInt(25 * 1024 * 1024),
    JOB_WAIT_MS: wholeNumber(0).default(30_000),
    /**
     * Lock on a running account job (exports, bulk work), renewed while it runs: a job whose worker
     * died is taken up again (retried) after about this long.
     */
    JOB_LOCK_MS: wholeNumber(1000).default(30_000),
    /**
     * How often each worker queues again the jobs Postgres records as unfinished but Redis no longer
     * holds, and registers the maintenance schedules again (also whenever its Redis connection is back).
     */
    JOB_RECOVERY_MS: positiveInt(60_000),
    RATE_LIMIT_MAX: positiveInt(6000),
    RATE_LIMIT_WINDOW_MS: positiveInt(60_000),
    /** How often the maintenance queue sweeps expired API keys. */
    KEY_EXPIRY_SWEEP_MS: positiveInt(60_000),
    /**
     * Failed API authentications (a key that is unknown, revoked, expired or malformed) one client
     * address (an IPv6 /64) may make per AUTH_FAILURE_WINDOW_MS; past it 429 without a key lookup.
     */
    AUTH_FAILURE_LIMIT: positiveInt(100),
    /** A session ends after this long without a request (sliding), … */
    SESSION_IDLE_MS: positiveInt(7 * 24 * 3600 * 1000),
    /** … and this long after sign-in whatever the activity. */
    SESSION_MAX_AGE_MS: positiveInt(30 * 24 * 3600 * 1000),
    /** Failed sign-ins for one email address from one client address per SIGN_IN_FAILURE_WINDOW_MS; past it 429. */
    SIGN_IN_FAILURE_LIMIT: positiveInt(10),
    /** Failed sign-ins for one email address from anywhere per SIGN_IN_FAILURE_WINDOW_MS (a spread-out guesser); past it 429. */
    SIGN_IN_EMAIL_FAILURE_LIMIT: positiveInt(50),
    /** Fixed windows: a person locked out by someone else's guesses is let in again when the window ends. */
    SIGN_IN_FAILURE_WINDOW_MS: positiveInt(15 * 60 * 1000),
    /**
     * Who may get a sign-in (decision 0409): `invite` (an admin's invitation, or the CLI), `open`
     * (anyone signs up with an account of their own, POST /users), `closed` (invitations only add
     * people who already have a sign-in here).
     */
    REGISTRATION: z.enum(['invite', 'open', 'closed']).default('invite'),
    /** The plan of the first account, made by the setup link on an empty database. */
    SETUP_PLAN: z.enum(PLAN_NAMES).default('business'),
    /** The plan of an account someone makes by signing up (REGISTRATION=open). */
    REGISTRATION_PLAN: z.enum(PLAN_NAMES).default('starter'),
    AUTH_FAILURE_WINDOW_MS: positiveInt(15 * 60 * 1000),
    /** Password reset mails one email address may be sent per PASSWORD_RESET_WINDOW_MS (asked for from anywhere); past it 429. */
    PASSWORD_RESET_EMAIL_LIMIT: positiveInt(5),
    /** Password resets one client address may ask for per PASSWORD_RESET_WINDOW_MS, whatever the email addresses; past it 429. */
    PASSWORD_RESET_CLIENT_LIMIT: positiveInt(20),
    PASSWORD_RESET_WINDOW_MS: positiveInt(60 * 60 * 1000),
    /** Active (not revoked, not expired) API keys an account may hold; creating one more is a 409. */
    API_KEYS_MAX_PER_ACCOUNT: positiveInt(DEFAULT_MAX_ACTIVE_API_KEYS),
    /**
     * Comma-separated secrets that sign the cookie a link's password opens (each at least 32
     * characters): the first signs, every one verifies, so a new secret put first rotates without
     * ending live sessions. Unset: one is made once and kept in SECRETS_DIR.
     */
    PASSWORD_COOKIE_SECRETS: z
      .string()
      .optional()
      .refine(
        (v) => v === undefined || v.split(',').every((s) => s.trim().length >= 32),
        'must be comma-separated secrets of at least 32 characters each',
      ),
    /**
     * The server's own secret (at least 32 characters), from which the key that encrypts people's
     * two-factor secrets in Postgres is derived. Unset: one is made once and kept in SECRETS_DIR.
     * Lost or changed, nobody's authenticator codes are accepted any more: people with two-factor
     * on sign in with a recovery code and turn it on again.
     */
    SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    /**
     * The mail server people's mails (invitations, password resets) leave by:
     * `smtp://user:password@host:587` (STARTTLS when the server offers it) or `smtps://…:465`.
     * Unset: a mail is written to the log instead, and the console offers its link to copy.
     */
    SMTP_URL: z
      .string()
      .optional()
      .refine((v) => v === undefined || (URL.canParse(v) && /^smtps?:$/.test(new URL(v).protocol)), 'must be an smtp:// or smtps:// URL'),
    /** The From of those mails: an address, or `Name <address>`. */
    MAIL_FROM: z
      .string()
      .default('qrlinks <no-reply@localhost>')
      .refine((v) => !/[\p{Cc}]/u.test(v), 'must be one line'),
    /** Where secrets made by the service itself are kept (0700 folder, 0600 files), when not given in the environment. */
    SECRETS_DIR: z.string().min(1).default('./data/secrets'),
    /** An uploaded file no link has used for this long is deleted by the orphan sweep. */
    ORPHAN_FILE_TTL_MS: positiveInt(24 * 60 * 60 * 1000),
    /** A finished job (its status, result and file: exports, ZIPs) is deleted this long after it finished. */
    JOB_RETENTION_MS: positiveInt(7 * 24 * 60 * 60 * 1000),
    /** How often the maintenance queue sweeps orphaned uploads. */
    ORPHAN_SWEEP_MS: positiveInt(60 * 60 * 1000),
    WORKER_CONCURRENCY: positiveInt(4),
    /**
     * Jobs of one kind (exports, bulk batches, cafe bulk inserts) one account may have waiting to
     * start; one more is a 429. Also bounds the priorities that make queues fair between accounts.
     */
    JOB_ACCOUNT_QUEUE: positiveInt(20),
    /**
     * Jobs of one kind one account may have running at once, across all workers; its others wait,
     * so other accounts' jobs find a free worker slot. Below WORKER_CONCURRENCY, or one account
     * can still hold every slot of a lone worker.
     */
    JOB_ACCOUNT_ACTIVE: positiveInt(2),
    /**
     * CPU priority (nice, 0-19) of a worker process: background work yields to the api and the
     * redirect when they share a machine; alone on one, it changes nothing.
     */
    WORKER_NICE: wholeNumber(0, 19).default(10),
    /**
     * Scans per second (received by this worker) at which bulk jobs such as qr-render pace themselves,
     * so the scan path keeps its latency on a shared machine; 0: never (a worker on a machine of its own).
     */
    BULK_PACE_SCANS_PER_SEC: wholeNumber(0).default(200),
    /** Share of wall time, in percent, a bulk job keeps for its work while it paces. */
    BULK_PACE_SHARE_PERCENT: wholeNumber(1, 100).default(25),
    /** Threads that render QR images in each process (default: cores - 1, at least 1). */
    QR_RENDER_THREADS: positiveInt(Math.max(1, availableParallelism() - 1)),
    /** Renders one account may have running at once in a process (at most QR_RENDER_THREADS), so other accounts find threads. */
    QR_RENDER_ACCOUNT_THREADS: positiveInt(2),
    /** Renders of one account that may wait in an api process beyond its running ones; past it a QR request is a 429. */
    QR_RENDER_ACCOUNT_QUEUE: wholeNumber(0).default(16),
    /** Longest a QR render may take, waiting for a thread included; past it the request is a 503 with Retry-After. */
    QR_RENDER_TIMEOUT_MS: positiveInt(20_000),
    SHUTDOWN_TIMEOUT_MS: positiveInt(10_000),
    /**
     * On SIGTERM an api or redirect process first answers `/ready` with 503 for this long while it
     * still serves every request, so a balancer checking /ready stops sending it new ones before it
     * closes (docs/decisions/0395). At least the balancer's check interval × the failed checks it
     * needs, plus one interval; 0 closes at once (one process alone, tests).
     */
    SHUTDOWN_READY_DRAIN_MS: wholeNumber(0, 120_000).default(5000),
    /** `npm start`: first delay before a role that died is started again (doubling for each further exit in the window, at most 30 s). */
    ROLE_RESTART_DELAY_MS: positiveInt(1000),
    /** `npm start`: exits of one role tolerated within ROLE_RESTART_WINDOW_MS; one more stops the whole service. */
    ROLE_MAX_RESTARTS: positiveInt(5),
    ROLE_RESTART_WINDOW_MS: positiveInt(60_000),
    /** How long a redirect process uses its own copy of a link before asking Redis (changes reach it sooner, by pub/sub). */
    LINK_CACHE_TTL_MS: positiveInt(5000),
    /** Links a redirect process keeps in memory at most. */
    LINK_CACHE_MAX_ENTRIES: positiveInt(100_000),
    /** Megabytes of links (counted as their JSON) a redirect process keeps in memory at most. */
    LINK_CACHE_MB: positiveInt(64),
    /** Megabytes of rendered landing and menu pages (and their compressed copies) a redirect process keeps at most. */
    PAGE_CACHE_MB: positiveInt(128),
    /** Threads a redirect process renders landing and menu pages on (off the event loop that answers scans). */
    PAGE_RENDER_THREADS: positiveInt(1),
    /**
     * Unknown slugs (404s) a client address (IPv6: its /64) gets from the redirect per window; past
     * it a 429 page until the window ends. Only 404s count: valid scans behind one NAT never do.
     */
    REDIRECT_NOT_FOUND_LIMIT: positiveInt(100),
    REDIRECT_NOT_FOUND_WINDOW_MS: positiveInt(60_000),
    /**
     * Comma-separated addresses/CIDRs whose X-Forwarded-For is believed: the load balancers in
     * front of the api and the redirect. Without them every limit counts the balancer as one client.
     */
    TRUSTED_PROXIES: z.string().default('').refine(isCidrList, 'must be comma-separated addresses or CIDRs'),
    /** The most bytes a QR code's centre image may have (data URI, uploaded file or fetched URL). */
    QR_IMAGE_MAX_BYTES: positiveInt(2 * 1024 * 1024),
    /** Time allowed for fetching a QR image URL: DNS, connect, redirects and the whole body. */
    QR_IMAGE_FETCH_TIMEOUT_MS: positiveInt(5000),
    /** Comma-separated CIDRs an image URL may resolve to although they are not public (e.g. an intranet CDN). */
    QR_IMAGE_FETCH_ALLOW_CIDRS: z.string().default('').refine(isCidrList, 'must be comma-separated CIDRs'),
    /**
     * Single sign-on with OpenID Connect (docs/decisions/0406): on when OIDC_ISSUER and
     * OIDC_CLIENT_ID are both set. The issuer is discovered at its /.well-known/openid-configuration.
     */
    OIDC_ISSUER: z
      .string()
      .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'must be an http(s) URL')
      .optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    /** Comma-separated email domains whose people may sign in with SSO; empty: any verified email. */
    OIDC_ALLOWED_EMAIL_DOMAINS: z
      .string()
      .default('')
      .refine((v) => splitList(v).every((d) => /^[^\s@,]+\.[^\s@,]+$/.test(d)), 'must be comma-separated domains such as example.com')
      .transform((v) => splitList(v).map((d) => d.toLowerCase())),
    /**
     * Brand domains: the addresses (comma-separated IPv4/IPv6) where this service is reached from
     * the internet. A domain is routed here when its name resolves to these and nothing else;
     * empty: that check is not made, and ownership alone verifies a domain.
     */
    DOMAIN_TARGET_ADDRESSES: z
      .string()
      .default('')
      .refine((v) => splitList(v).every((a) => parseAddress(a) !== null), 'must be comma-separated IP addresses')
      .transform((v) => splitList(v).map((a) => parseAddress(a)!.toString())),
    /** Brand domains: the name a subdomain's CNAME may point at instead; unset: the host of SHORT_URL_BASE. */
    DOMAIN_CNAME_TARGET: z.string().min(1).optional(),
    /**
     * The DNS servers brand domains are checked through (comma-separated `ip` or `ip:port`);
     * empty: the machine's own resolvers.
     */
    DNS_SERVERS: z
      .string()
      .default('')
      .refine((v) => splitList(v).every(isDnsServer), 'must be comma-separated IP addresses, each with an optional :port')
      .transform(splitList),
    /**
     * The secret a proxy on another network sends with its TLS asks (`GET /internal/tls-ask?token=…`
     * on the redirect); from loopback and private addresses none is needed.
     */
    TLS_ASK_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /**
     * Brand domains' HTTP challenge: the port `http://<host>/.well-known/qrlinks-challenge/<token>`
     * is asked on (80, where a TLS proxy answers plain HTTP), and the private ranges it may reach
     * besides public addresses (none unless set: the check must not become a way into the network).
     */
    DOMAIN_HTTP_PORT: port(80),
    DOMAIN_CHECK_ALLOW_CIDRS: z.string().default('').refine(isCidrList, 'must be comma-separated addresses or CIDRs'),
    /** How long one DNS question of a domain check may take before it counts as unanswered. */
    DNS_TIMEOUT_MS: wholeNumber(100, 30_000).default(2000),
    /** The role a person signing in with SSO for the first time gets in OIDC_ACCOUNT_ID (never owner). */
    OIDC_DEFAULT_ROLE: z.enum(['admin', 'editor', 'viewer']).default('viewer'),
    /** The account new SSO users join; unset: the only account, when there is exactly one. */
    OIDC_ACCOUNT_ID: z.uuid('must be an account id (a UUID)').optional(),
    OIDC_BUTTON_LABEL: z.string().trim().min(1).max(60).default('Sign in with SSO'),
    /** Longest wait for the issuer (discovery, token, keys, userinfo): a hung issuer costs a sign-in at most this. */
    OIDC_TIMEOUT_MS: wholeNumber(100, 60_000).default(5000),
    /** The longest a redirect process holds a scan before sending it to Redis: what a kill -9 of it can lose. */
    SCAN_FLUSH_MS: wholeNumber(1, 10).default(10),
    /** Scans per job of the `scans` queue; a full batch is sent at once, without waiting for the window. */
    SCAN_BATCH_SIZE: wholeNumber(1, 10_000).default(1000),
    /** Scans a redirect process holds while Redis is unreachable; past it new scans are dropped (and counted). */
    SCAN_BUFFER_MAX: positiveInt(200_000),
    /** Where a redirect process stopping while Redis is unreachable writes its scans, to send them at its next start. */
    SCAN_SPOOL_DIR: z.string().min(1).default('./data/scan-spool'),
    /**
     * Megabytes of write-ahead files a redirect process keeps for batches already in Redis until
     * Postgres has their scans (so a loss of Redis loses none); past it the oldest are deleted.
     */
    SCAN_SPOOL_MAX_MB: positiveInt(1024),
    /**
     * Each scan written ahead to SCAN_SPOOL_DIR before its answer leaves, so a kill -9 of a redirect
     * process loses none (a group commit, one write per event-loop turn; its cost is measured in docs/benchmarks.md);
     * false: a kill -9 can lose the last flush window's scans.
     */
    SCAN_WRITE_AHEAD: bool(true),
    /**
     * Days raw scans are kept: whole months past it are dropped by the maintenance job (the month
     * a scan falls in goes once all of it is older). Analytics of older ranges read the rollups,
     * which stay. 0: raw scans are kept for ever (docs/decisions/0397).
     */
    SCAN_RETENTION_DAYS: wholeNumber(0).default(0),
    /** Days audit events are kept; older ones are deleted by the maintenance job within the hour (docs/decisions/0405). */
    AUDIT_RETENTION_DAYS: positiveInt(400),
    /**
     * Webhooks (docs/decisions/0427): private ranges a webhook's URL may reach besides public
     * addresses (comma-separated addresses or CIDRs; none unless set, so a webhook is never a way
     * into the operator's network).
     */
    WEBHOOK_ALLOW_CIDRS: z.string().default('').refine(isCidrList, 'must be comma-separated addresses or CIDRs'),
    /** The longest one delivery attempt may take (DNS, connect, the answer). */
    WEBHOOK_TIMEOUT_MS: wholeNumber(100, 60_000).default(10_000),
    /**
     * The waits before each retry of a failed delivery, in milliseconds (comma-separated): by
     * default the Standard Webhooks schedule stretched over about three days (5 s, 5 min, 30 min,
     * 2 h, 5 h, 10 h, 14 h, 20 h, 20 h); its length is the number of retries.
     */
    WEBHOOK_RETRY_SCHEDULE: z
      .string()
      .default('5000,300000,1800000,7200000,18000000,36000000,50400000,72000000,72000000')
      .refine((v) => splitList(v).every((d) => /^\d{1,10}$/.test(d)), 'must be comma-separated milliseconds')
      .transform((v) => splitList(v).map(Number)),
    /** Deliveries a worker process sends at once, across every endpoint. */
    WEBHOOK_CONCURRENCY: wholeNumber(1, 1000).default(32),
    /** Deliveries to one endpoint at once, across every worker process: a slow receiver holds only these. */
    WEBHOOK_ENDPOINT_CONCURRENCY: wholeNumber(1, 100).default(4),
    /** An endpoint is turned off after this many failed attempts in a row … */
    WEBHOOK_DISABLE_AFTER_FAILURES: positiveInt(15),
    /** … once it has been failing for at least this long (a short outage never turns one off). */
    WEBHOOK_DISABLE_AFTER_MS: wholeNumber(0).default(86_400_000),
    /** Days deliveries and their attempts are kept for the delivery log. */
    WEBHOOK_LOG_RETENTION_DAYS: positiveInt(30),
    /** The longest a scan waits for its `link.scanned` delivery (a batch goes sooner once full). */
    WEBHOOK_SCAN_BATCH_MS: wholeNumber(100, 60_000).default(10_000),
    /** Scan batches a worker process inserts at once. */
    SCAN_WORKER_CONCURRENCY: positiveInt(64),
    /** How long a worker waits to gather scan batches into one statement when fewer than SCAN_INGEST_MAX_SCANS wait (0: write at once). */
    SCAN_INGEST_LINGER_MS: wholeNumber(0, 5000).default(200),
    /** Most queued scans one ingesting statement writes (bigger statements cost Postgres less per scan). */
    SCAN_INGEST_MAX_SCANS: wholeNumber(1, 200_000).default(50_000),
    /**
     * Partitions of the links a worker writes one at a time, each by one worker process at once, so
     * worker processes never wait on each other's links (at least the number of worker processes).
     */
    SCAN_INGEST_PARTITIONS: wholeNumber(1, 1024).default(16),
    /** Lock of a scan batch being inserted; a batch whose worker died is taken up again after about this long. */
    SCAN_WORKER_LOCK_MS: wholeNumber(500).default(30_000),
  })
  .superRefine((env, ctx) => {
    if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID)
      ctx.addIssue({ code: 'custom', path: ['OIDC_CLIENT_ID'], message: 'is required when OIDC_ISSUER is set' });
    if (env.STORAGE_DRIVER !== 's3') return;
    for (const name of ['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const) {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when STORAGE_DRIVER=s3' });
    }
  });

/** `1.2.3.4`, `1.2.3.4:53`, `::1` or `[::1]:53`: the forms Node's resolver takes. */
function isDnsServer(server: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(server);
  if (bracketed) return parseAddress(bracketed[1]!) !== null;
  return parseAddress(server) !== null || parseAddress(server.replace(/:\d{1,5}$/, '')) !== null;
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the environment; throws a ConfigError whose message is one line naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings mean "unset" so `PORT= npm start` falls back to the default instead of failing.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  if (present.REDIS_NAMESPACE === undefined && present[DEPRECATED_NAMESPACE] !== undefined)
    present.REDIS_NAMESPACE = present[DEPRECATED_NAMESPACE];
  const parsed = envSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'environment');
    // A secret's value (SMTP_URL may hold a password) is never repeated into logs.
    const got = /SECRET|SMTP_URL/.test(name) ? undefined : env[name];
    const message = issue.message.replace(/^Invalid (input|option): /, '').replace(/^expected one of/, 'must be one of');
    return `${name} ${message}${got !== undefined ? ` (got ${JSON.stringify(got)})` : ''}`;
  });
  throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
}

/** The namespace's earlier name, read when REDIS_NAMESPACE is unset; dropped in the next release. */
const DEPRECATED_NAMESPACE = 'QUEUE_PREFIX';

/** Lines to print at start for settings given under a name that is going away. */
export function configDeprecations(env: NodeJS.ProcessEnv = process.env): string[] {
  if (!env[DEPRECATED_NAMESPACE]) return [];
  const used = env.REDIS_NAMESPACE ? 'ignored: REDIS_NAMESPACE is set' : 'read as REDIS_NAMESPACE for this release';
  return [`${DEPRECATED_NAMESPACE} is deprecated (${used}); it names every Redis key of the install, so set REDIS_NAMESPACE instead`];
}

/** Entry points call this: a bad variable ends the process with one clear line, not a stack trace. */
export function loadConfigOrExit(): Config {
  for (const line of configDeprecations()) process.stderr.write(`qrlinks: ${line}\n`);
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}
