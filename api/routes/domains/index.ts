/**
 * An account's brand domains (decision 0425): anyone in it may see them; admins add, change,
 * check and remove them, since a domain speaks for the whole account.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addDomain,
  checkDomain,
  checkTargets,
  configuredTargets,
  deleteDomain,
  getDomain,
  httpChallengeOptions,
  listDomains,
  updateDomain,
} from '#domain/domains/domains.js';
import { announceDomainChange } from '#domain/domains/served-hosts.js';
import { messageResponse, resourceParams } from '../../schemas.js';
import { createDomainBody, domainResponse, updateDomainBody } from './schemas.js';
import { domainView } from './view.js';

const idParams = resourceParams('id', 'Domain');
const tags = ['domains'];
const admin = { scope: 'all', role: 'admin' } as const;

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, dns, redis, logger } = app.ctx;
  const targets = configuredTargets(config);
  const view = (row: Parameters<typeof domainView>[0]) => domainView(row, targets);
  // Every process that answers TLS asks reloads the names it serves (domain/domains/served-hosts.ts).
  const announce = (hostname: string) => announceDomainChange(redis, config.REDIS_NAMESPACE, hostname, logger);

  app.get('', {
    config: { auth: { scope: 'any', role: 'viewer' } },
    schema: {
      tags,
      summary: 'The account’s domains, newest first, each with the DNS records to set',
      response: { 200: z.object({ data: z.array(domainResponse) }) },
    },
    handler: async (request) => ({ data: (await listDomains(db, request.principal.accountId)).map(view) }),
  });

  app.get('/:id', {
    config: { auth: { scope: 'any', role: 'viewer' } },
    schema: {
      tags,
      summary: 'A domain, with the DNS records to set',
      params: idParams,
      response: { 200: z.object({ data: domainResponse }) },
    },
    handler: async (request) => ({ data: view(await getDomain(db, request.principal.accountId, request.params.id)) }),
  });

  app.post('', {
    config: { auth: admin, audit: { entity: 'domain', action: 'create', id: 'response' } },
    schema: {
      tags,
      summary: 'Add a domain: pending until its TXT record proves it the account’s and it points at the service',
      body: createDomainBody,
      response: { 201: domainResponse },
    },
    handler: async (request, reply) => {
      const { hostname, root_url, not_found_url, expired_url } = request.body;
      const row = await addDomain(db, config, request.principal.accountId, {
        hostname,
        rootUrl: root_url,
        notFoundUrl: not_found_url,
        expiredUrl: expired_url,
      });
      await announce(row.hostname);
      return reply.code(201).send(view(row));
    },
  });

  app.patch('/:id', {
    config: { auth: admin, audit: { entity: 'domain', action: 'update' } },
    schema: {
      tags,
      summary: 'Change where the domain sends people, make it the account’s default, or turn it off or on',
      params: idParams,
      body: updateDomainBody,
      response: { 200: z.object({ data: domainResponse }) },
    },
    handler: async (request) => {
      const { root_url, not_found_url, expired_url, disabled, is_default } = request.body;
      const row = await updateDomain(db, request.principal.accountId, request.params.id, {
        rootUrl: root_url,
        notFoundUrl: not_found_url,
        expiredUrl: expired_url,
        disabled,
        isDefault: is_default,
      });
      await announce(row.hostname);
      return { data: view(row) };
    },
  });

  app.post('/:id/verify', {
    config: { auth: admin, audit: { entity: 'domain', action: 'verify' } },
    schema: {
      tags,
      summary: 'Check the domain now: its records as found, and its state after them',
      params: idParams,
      response: { 200: z.object({ data: domainResponse }) },
    },
    handler: async (request) => {
      const row = await getDomain(db, request.principal.accountId, request.params.id);
      const { domain, movedFrom } = await checkDomain(db, dns, await checkTargets(dns, config), httpChallengeOptions(config), row);
      if (movedFrom !== null) await announce(domain.hostname);
      return { data: view(domain) };
    },
  });

  app.delete('/:id', {
    config: { auth: admin, audit: { entity: 'domain', action: 'delete' } },
    schema: {
      tags,
      summary: 'Remove a domain with no links on it (409 `domain_in_use` otherwise); another account may then add the name and prove it',
      params: idParams,
      response: { 200: messageResponse },
    },
    handler: async (request) => {
      const { hostname } = await deleteDomain(db, request.principal.accountId, request.params.id);
      await announce(hostname);
      return { message: 'Domain deleted' };
    },
  });
};

export default routes;
