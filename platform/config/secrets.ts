/**
 * Server secrets: given in the environment, or made once by the service and kept in SECRETS_DIR,
 * so a fresh install needs no setup and keeps its secret across restarts.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from './index.js';

const MIN_SECRET_LENGTH = 32;

/**
 * The secrets of the link password cookie: PASSWORD_COOKIE_SECRETS (the first signs, all verify),
 * else the one kept in SECRETS_DIR.
 */
export async function passwordCookieSecrets(config: Pick<Config, 'PASSWORD_COOKIE_SECRETS' | 'SECRETS_DIR'>): Promise<Buffer[]> {
  if (config.PASSWORD_COOKIE_SECRETS) return config.PASSWORD_COOKIE_SECRETS.split(',').map((s) => Buffer.from(s.trim()));
  return [Buffer.from(await keptSecret(config.SECRETS_DIR, 'password-cookie-secret'))];
}

/**
 * The secret in `dir/name`, made first if there is none. Processes starting together (api,
 * redirect and worker under `npm start`, or replicas sharing a volume) agree on one: each writes
 * a candidate to a temporary file of its own (0600, synced) and hard-links it to the name, which
 * succeeds for exactly one of them; everyone then reads the name. Nobody ever reads a file that
 * is still being written.
 */
export async function keptSecret(dir: string, name: string): Promise<string> {
  const path = join(dir, name);
  try {
    return await readSecret(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const candidate = join(dir, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = await open(candidate, 'wx', 0o600);
    try {
      await file.writeFile(`${randomBytes(48).toString('base64url')}\n`);
      await file.sync();
    } finally {
      await file.close();
    }
    await link(candidate, path).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
  } catch (err) {
    throw new Error(
      `Cannot keep a secret in ${dir} (${(err as Error).message}); make it writable, or set SECRETS_DIR or the secret's variable`,
    );
  } finally {
    await rm(candidate, { force: true });
  }
  return readSecret(path);
}

async function readSecret(path: string): Promise<string> {
  const secret = (await readFile(path, 'utf8')).trim();
  if (secret.length < MIN_SECRET_LENGTH)
    throw new Error(`The secret in ${path} is shorter than ${MIN_SECRET_LENGTH} characters; delete it to have a new one made`);
  return secret;
}

/** The server's own secret: SECRET_KEY, else the one kept in SECRETS_DIR. */
export async function serverSecret(config: Pick<Config, 'SECRET_KEY' | 'SECRETS_DIR'>): Promise<Buffer> {
  return Buffer.from(config.SECRET_KEY ?? (await keptSecret(config.SECRETS_DIR, 'secret-key')));
}
