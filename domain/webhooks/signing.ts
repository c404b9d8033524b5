/**
 * Standard Webhooks signatures, made by the specification's own library: `v1,<base64 HMAC-SHA256
 * of "id.timestamp.body">` under each secret that signs (the new one, and during a rotation the
 * old one too), separated by spaces in one `webhook-signature` header.
 */
import { Webhook } from 'standardwebhooks';

export interface SigningSecrets {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** The request headers of one attempt, signed at `at`. */
export function signedHeaders(secrets: SigningSecrets, id: string, body: string, at: Date): Record<string, string> {
  const signing = [secrets.secret];
  if (secrets.previousSecret && secrets.previousSecretExpiresAt && secrets.previousSecretExpiresAt > at)
    signing.push(secrets.previousSecret);
  // The library signs whole seconds, as the header carries them.
  const signature = signing.map((secret) => new Webhook(secret).sign(id, at, body)).join(' ');
  return {
    'content-type': 'application/json',
    'user-agent': 'qrlinks-webhooks/1',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}
