/** The domains endpoints' request and response schemas. */
import { z } from 'zod';
import { httpUrlHref } from '#domain/links/data/formats.js';
import { DOMAIN_STATES } from '#domain/domains/tables.js';

const URL_MAX = 2048;
const URL_MESSAGE = 'Must be an http(s) URL, or null for the service’s own page';

/** Where the domain sends people instead of a page of ours: an http(s) URL, or null. */
const addressField = () =>
  z
    .string({ error: 'Must be a string or null' })
    .max(URL_MAX, { error: `Must be at most ${URL_MAX} characters` })
    .transform((value, ctx) => {
      const href = httpUrlHref(value);
      if (href !== null) return href;
      ctx.addIssue({ code: 'custom', message: URL_MESSAGE });
      return z.NEVER;
    })
    .nullable()
    .optional();

const addresses = {
  root_url: addressField().describe('Where https://<host>/ sends a visitor; null: the service’s page'),
  not_found_url: addressField().describe('Where an unknown slug on this host sends a visitor; null: the not-found page'),
  expired_url: addressField().describe('Where a paused, expired or used-up link on this host sends a visitor; null: its status page'),
};

export const createDomainBody = z.strictObject({
  hostname: z
    .string({ error: 'Must be a string' })
    .max(300, { error: 'A domain name has at most 253 characters' })
    .describe('The name, such as links.example.com; unicode names, a port or a trailing dot are normalised away'),
  ...addresses,
});

export const updateDomainBody = z.strictObject({
  ...addresses,
  disabled: z
    .boolean({ error: 'Must be true or false' })
    .optional()
    .describe('true turns the domain off (nothing answers for it); false turns it on again, to be proved again'),
  is_default: z
    .boolean({ error: 'Must be true or false' })
    .optional()
    .describe(
      'true makes it the account’s default domain (where new links go when they name none; the previous default stops being it); false: the service’s default domain again',
    ),
});

const recordResponse = z.object({
  purpose: z.enum(['ownership', 'routing']),
  type: z.enum(['TXT', 'A', 'AAAA', 'CNAME']),
  name: z.string(),
  value: z.string(),
  found: z.array(z.string()).nullable().describe('What the last check found there; null before the first check'),
  ok: z.boolean().nullable(),
});

export const domainResponse = z.object({
  id: z.string(),
  hostname: z.string(),
  state: z.enum(DOMAIN_STATES),
  token: z.string().describe('What the TXT record _qrlinks-challenge.<hostname> must hold'),
  records: z.array(recordResponse).describe('The DNS records to set, each beside what was found'),
  errors: z.record(z.string(), z.string()).describe('Lookups of the last check that got no answer, and why'),
  is_default: z.boolean().describe('Whether new links go here when they name no domain'),
  root_url: z.string().nullable(),
  not_found_url: z.string().nullable(),
  expired_url: z.string().nullable(),
  verified_at: z.string().nullable(),
  checked_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
