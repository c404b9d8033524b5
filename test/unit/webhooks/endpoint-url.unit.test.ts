/**
 * A webhook URL as it is given: what it resolves to decides (public, or allowed by the operator),
 * and a resolver that never answers costs the request WEBHOOK_TIMEOUT_MS, then a 400 in words.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '#domain/errors.js';
import { checkEndpointUrl } from '#domain/webhooks/endpoints.js';

const config = { WEBHOOK_ALLOW_CIDRS: '', WEBHOOK_TIMEOUT_MS: 200 };
const answering = (address: string) => async () => [{ address, family: 4 }];

async function refusal(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  return JSON.stringify((err as ValidationError).body.errors);
}

describe('a webhook URL', () => {
  it('passes when every address of its name is public, normalised', async () => {
    await expect(checkEndpointUrl(config, 'HTTPS://Hooks.Example.com/in?x=1', answering('93.184.216.34'))).resolves.toBe(
      'https://hooks.example.com/in?x=1',
    );
  });

  it('is refused when its name resolves to a private address, unless the operator allows the range', async () => {
    expect(await refusal(checkEndpointUrl(config, 'https://hooks.example.com/', answering('10.1.2.3')))).toMatch(/private address/);
    await expect(
      checkEndpointUrl({ ...config, WEBHOOK_ALLOW_CIDRS: '10.0.0.0/8' }, 'https://hooks.example.com/', answering('10.1.2.3')),
    ).resolves.toBe('https://hooks.example.com/');
    expect(await refusal(checkEndpointUrl(config, 'http://2130706433/', answering('1.1.1.1')))).toMatch(/private address/);
  });

  it('gives up on a resolver that never answers after WEBHOOK_TIMEOUT_MS', async () => {
    const started = performance.now();
    const never = () => new Promise<Array<{ address: string; family: number }>>(() => {});
    expect(await refusal(checkEndpointUrl(config, 'https://slow.example.com/', never))).toMatch(/could not be resolved/);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses other schemes, credentials and browsers’ bad ports', async () => {
    for (const url of ['ftp://example.com/', 'https://user:pw@example.com/', 'http://example.com:25/', 'not a url']) {
      await refusal(checkEndpointUrl(config, url, answering('93.184.216.34')));
    }
  });
});
