/**
 * A real OpenID provider (npm `oidc-provider`) in the test process, on 127.0.0.1 and a free port,
 * with one confidential client whose redirect URI is the test api's callback. People sign in at
 * its built-in development login form (any password), which Chromium fills in like a person
 * would; the login name picks one of `people` (or one added later with `addPerson`).
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Provider from 'oidc-provider';

export interface OidcPerson {
  email: string;
  emailVerified: boolean;
  name: string;
}

/** Who the provider knows, by login name: verified and not, of the allowed domain and another. */
export const PEOPLE: Record<string, OidcPerson> = {
  alice: { email: 'alice@example.com', emailVerified: true, name: 'Alice Example' },
  bob: { email: 'bob@example.com', emailVerified: false, name: 'Bob Unverified' },
  carol: { email: 'carol@example.org', emailVerified: true, name: 'Carol Elsewhere' },
};

export const CLIENT_ID = 'qrlinks-test';
export const CLIENT_SECRET = 'a-client-secret-of-the-test-provider-only';

export interface TestOidcProvider {
  issuer: string;
  /** Adds (or replaces) a person the login form knows. */
  addPerson(login: string, person: OidcPerson): void;
  /**
   * The provider's next redirect back to the relying party is not sent: the browser gets a plain
   * page instead, and the promise the URL it would have gone to (to replay, alter or steal).
   */
  holdNextCallback(): Promise<string>;
  close(): Promise<void>;
}

export async function startOidcProvider(redirectUri: string): Promise<TestOidcProvider> {
  const people = new Map(Object.entries(PEOPLE));
  let handler: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | null = null;
  let hold: ((url: string) => void) | null = null;
  const server = createServer((req, res) => {
    if (hold) {
      // The provider sets its answer's status and Location, then ends it: held before it goes.
      const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
      res.end = ((...args: unknown[]) => {
        const location = res.getHeader('location');
        if (hold && res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string' && location.startsWith(redirectUri)) {
          hold(location);
          hold = null;
          res.statusCode = 200;
          res.removeHeader('location');
          res.setHeader('content-type', 'text/plain');
          res.removeHeader('content-length');
          return end('held back');
        }
        return end(...args);
      }) as typeof res.end;
    }
    // Koa (the provider's server) answers its own errors (ctx.onerror): the promise never rejects.
    void handler!(req, res);
  });
  const port = await listen(server);
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['test-provider-cookie-key-0123456789'] },
    pkce: { required: () => true },
    // Signing keys and lifetimes of its own, so the provider does not warn of its quick-start defaults.
    jwks: { keys: [generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' })] },
    ttl: { AccessToken: 600, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    async findAccount(_ctx, sub) {
      const person = people.get(sub);
      if (!person) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: person.email, email_verified: person.emailVerified, name: person.name }),
      };
    },
  });
  handler = provider.callback();
  return {
    issuer,
    addPerson: (login, person) => void people.set(login, person),
    holdNextCallback: () => new Promise<string>((resolve) => (hold = resolve)),
    close: () => closeServer(server),
  };
}

/**
 * An issuer that takes connections and never answers (a provider hung behind its balancer): what
 * a sign-in costs then is the relying party's timeout, nothing more.
 */
export async function startHungIssuer(): Promise<{ issuer: string; connections(): number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer(() => {
    // Never answers.
  });
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);
  return {
    issuer: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await closeServer(server);
    },
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
