/**
 * The OpenID Connect relying party (openid-client): the authorization code flow with PKCE (S256),
 * `state` and `nonce` (docs/decisions/0407). What a sign-in must remember between the redirect to
 * the provider and the way back (state, nonce, code verifier) is kept in Redis for
 * ATTEMPT_TTL_SECONDS under a random id that the browser holds in a short-lived cookie; the way
 * back takes it with GETDEL, so an attempt is used once whatever its outcome.
 *
 * Every request to the issuer (discovery, token, keys, userinfo) gives up after `timeoutMs`: a
 * hung issuer costs a sign-in at most that, and a failed discovery is tried again by the next
 * sign-in rather than remembered.
 */
import { randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import type { Redis } from '../redis/client.js';

/** How long a started sign-in may take at the provider before its way back is refused. */
export const ATTEMPT_TTL_SECONDS = 10 * 60;

export interface OidcSettings {
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE alone, no client authentication). */
  clientSecret?: string | undefined;
  /** The callback registered at the provider, where it sends the browser back. */
  redirectUri: string;
  timeoutMs: number;
  redis: Redis;
  /** Prefix of the Redis keys. */
  namespace: string;
}

/** What the provider says of the person, taken from a verified ID token (and userinfo, for what it lacks). */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/**
 * Why a sign-in could not finish, for the caller to turn into words: the attempt is unknown,
 * expired or already used (`state`), the way back does not match it or the provider's answer
 * does not verify (`rejected`), the person declined at the provider (`denied`), or the provider
 * did not answer in time or at all (`unreachable`).
 */
export type OidcFailure = 'state' | 'rejected' | 'denied' | 'unreachable';

export class OidcError extends Error {
  override name = 'OidcError';
  constructor(
    readonly failure: OidcFailure,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

interface Attempt {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export class OidcClient {
  private discovered: Promise<client.Configuration> | null = null;

  constructor(private readonly settings: OidcSettings) {}

  /** Starts a sign-in: the attempt's id (for the browser's cookie) and the provider's URL to send the browser to. */
  async begin(): Promise<{ attemptId: string; url: string }> {
    const config = await this.configuration();
    const attempt: Attempt = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    const attemptId = randomBytes(32).toString('base64url');
    await this.settings.redis.set(this.keyOf(attemptId), JSON.stringify(attempt), 'EX', ATTEMPT_TTL_SECONDS);
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUri,
      scope: 'openid email profile',
      state: attempt.state,
      nonce: attempt.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(attempt.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { attemptId, url: url.href };
  }

  /**
   * Finishes the sign-in the browser came back from: `attemptId` from its cookie (null: none),
   * `query` the callback's query string. Takes the attempt (once), checks state, exchanges the
   * code with the PKCE verifier, verifies the ID token (signature, issuer, audience, expiry, nonce).
   */
  async finish(attemptId: string | null, query: string): Promise<OidcIdentity> {
    const stored = attemptId ? await this.settings.redis.getdel(this.keyOf(attemptId)) : null;
    if (!stored) throw new OidcError('state', 'This sign-in was not started here, has expired or was already used');
    const attempt = JSON.parse(stored) as Attempt;
    const params = new URLSearchParams(query);
    if (params.get('state') !== attempt.state) throw new OidcError('state', 'The state sent back does not match this sign-in');
    if (params.has('error')) {
      const denied = params.get('error') === 'access_denied';
      throw new OidcError(denied ? 'denied' : 'rejected', `The provider answered ${params.get('error')}`);
    }
    const config = await this.configuration();
    const currentUrl = new URL(this.settings.redirectUri);
    currentUrl.search = params.toString();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: attempt.codeVerifier,
        expectedState: attempt.state,
        expectedNonce: attempt.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      throw providerFailure(err);
    }
    const claims = tokens.claims()!;
    let email = typeof claims.email === 'string' ? claims.email : null;
    let verified = claims.email_verified;
    let name = typeof claims.name === 'string' ? claims.name : null;
    // Providers that keep profile claims out of the ID token give them at userinfo, for the same subject.
    if ((email === null || verified === undefined) && config.serverMetadata().userinfo_endpoint) {
      try {
        const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
        email ??= typeof info.email === 'string' ? info.email : null;
        verified ??= info.email_verified;
        name ??= typeof info.name === 'string' ? info.name : null;
      } catch (err) {
        throw providerFailure(err);
      }
    }
    // Some providers (and claims an operator maps by hand) send the string "true".
    return { issuer: claims.iss, subject: claims.sub, email, emailVerified: verified === true || verified === 'true', name };
  }

  /** The issuer's metadata, discovered once; a failure is not kept, so the next sign-in tries again. */
  private configuration(): Promise<client.Configuration> {
    this.discovered ??= this.discover().catch((err: unknown) => {
      this.discovered = null;
      throw err;
    });
    return this.discovered;
  }

  private async discover(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret, timeoutMs } = this.settings;
    const server = new URL(issuer);
    try {
      return await client.discovery(
        server,
        clientId,
        clientSecret,
        clientSecret === undefined ? client.None() : client.ClientSecretPost(clientSecret),
        {
          timeout: timeoutMs / 1000,
          // An http issuer is the operator's choice (one inside a private network, or a test's).
          ...(server.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
        },
      );
    } catch (err) {
      throw providerFailure(err);
    }
  }

  private keyOf(attemptId: string): string {
    return `${this.settings.namespace}:oidc-attempt:${attemptId}`;
  }
}

/** A provider that did not answer (in time) is `unreachable`; one whose answer does not verify is `rejected`. */
function providerFailure(err: unknown): OidcError {
  if (err instanceof OidcError) return err;
  const unreachable =
    err instanceof Error &&
    (err.name === 'TimeoutError' ||
      err.name === 'AbortError' ||
      (err instanceof TypeError && err.message === 'fetch failed') ||
      (err.cause instanceof Error && ['TimeoutError', 'AbortError'].includes(err.cause.name)));
  const detail = err instanceof Error ? err.message : String(err);
  return unreachable
    ? new OidcError('unreachable', `The sign-in provider did not answer: ${detail}`, { cause: err })
    : new OidcError('rejected', `The sign-in provider's answer was refused: ${detail}`, { cause: err });
}
