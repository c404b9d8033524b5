/**
 * The analytics GETs: account-wide here (/analytics/...), and the same endpoints per link
 * (/links/:id/analytics/..., registered by the links routes with `perLink`). Open to any valid
 * active key; an id that is not one of the caller's links answers the empty data, never a 404.
 */
import { defaultHostname } from '#domain/links/link-addresses.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  activityAnalytics,
  generalAnalytics,
  qrCodeAnalytics,
  domainAnalytics,
  rankedAnalytics,
  timeAnalytics,
  type AnalyticsScope,
  type RankedDimension,
} from '#domain/analytics/analytics.js';
import { linkDailyScans } from '#domain/analytics/link-days.js';
import { originAnalytics } from '#domain/analytics/origins.js';
import type { OriginDimension } from '#domain/analytics/rollups.js';
import { actionFunnel } from '#domain/page-actions/funnel.js';
import {
  actionsQuerySchema,
  actionsResponse,
  activityResponse,
  analyticsQuerySchema,
  generalResponse,
  linkDaysQuerySchema,
  linkDaysResponse,
  originResponse,
  qrCodeResponse,
  rankedResponse,
  timeResponse,
} from './schemas.js';
import { resourceParams } from '../../schemas.js';
import { analyticsExportRoute } from './export.js';
import type { LinkScope } from '#domain/links/scope.js';
import type { AuthRequirement } from '../../types.js';

const tags = ['analytics'];
const linkParams = resourceParams('id', 'Link', 'dynamic_link_id (the slug); an unknown id answers empty data', 'empty-data');

const RANKED: Array<[RankedDimension, string]> = [
  ['ops', 'Scans by operating system'],
  ['country', 'Scans by country'],
  ['region', 'Scans by city'],
  ['browser', 'Scans by browser'],
  ['device', 'Scans by device type (mobile, tablet, desktop, …)'],
];

/** Additions: where the scans came from (domain/analytics/origins.ts). */
const ORIGINS: Array<[OriginDimension, string]> = [
  [
    'source',
    'An addition: scans by source: `qr` (a printed code), `link` (the short link itself), `unknown` (codes printed before sources were told apart)',
  ],
  ['placement', "An addition: scans by the placement whose code was scanned (`(none)`: the link's plain code, or the link itself)"],
  ['referrer', "An addition: scans by the referring site's host (`(direct)`: none, as for most printed codes)"],
  ['campaign', "An addition: scans by utm_campaign (the link's own, or the visitor's where the link passes its query on; `(none)`: none)"],
];

export function analyticsRoutes(perLink: boolean): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = app.ctx;
    // A client reads the analytics of its own links (per link, and their sparklines), not the
    // account's totals: those need at least a viewer (docs/decisions/0412).
    const config: { auth: AuthRequirement } = { auth: perLink ? { scope: 'any' } : { scope: 'any', role: 'viewer' } };
    const of = perLink ? ' of the link' : ' of the account';
    const params = perLink ? { params: linkParams } : {};
    const scopeOf = (request: { principal: LinkScope; params: unknown }): AnalyticsScope =>
      perLink
        ? {
            accountId: request.principal.accountId,
            folderIds: request.principal.folderIds,
            linkSlug: (request.params as { id: string }).id,
            defaultHost: defaultHostname(app.ctx.config),
          }
        : { accountId: request.principal.accountId, defaultHost: defaultHostname(app.ctx.config) };

    app.get('/general', {
      config,
      schema: {
        tags,
        summary: `Links and scans${of} in the range`,
        ...params,
        querystring: analyticsQuerySchema,
        response: { 200: generalResponse },
      },
      handler: async (request) => generalAnalytics(db, scopeOf(request), request.query),
    });
    app.get('/activity', {
      config,
      schema: {
        tags,
        summary: `Scans${of} per year, month and day (and hour, for up to 7 days)`,
        ...params,
        querystring: analyticsQuerySchema,
        response: { 200: activityResponse },
      },
      handler: async (request) => activityAnalytics(db, scopeOf(request), request.query),
    });
    for (const [dimension, summary] of RANKED) {
      app.get(`/${dimension}`, {
        config,
        schema: {
          tags,
          summary: `${summary}${of}, most first`,
          ...params,
          querystring: analyticsQuerySchema,
          response: { 200: rankedResponse },
        },
        handler: async (request) => rankedAnalytics(db, scopeOf(request), request.query, dimension),
      });
    }
    for (const [dimension, summary] of ORIGINS) {
      app.get(`/${dimension}`, {
        config,
        schema: {
          tags,
          summary: `${summary}${of}, most first`,
          ...params,
          querystring: analyticsQuerySchema,
          response: { 200: originResponse },
        },
        handler: async (request) => originAnalytics(db, scopeOf(request), request.query, dimension),
      });
    }
    if (!perLink) {
      app.get('/qr-code', {
        config,
        schema: {
          tags,
          summary: 'Scans by link (named by the link name, with its slug), most first',
          querystring: analyticsQuerySchema,
          response: { 200: qrCodeResponse },
        },
        handler: async (request) => qrCodeAnalytics(db, request.principal.accountId, request.query),
      });
      app.get('/domain', {
        config,
        schema: {
          tags,
          summary:
            "An addition: scans by the domain their link is on (the service's default host, or one of the account's domains), most first",
          querystring: analyticsQuerySchema,
          response: { 200: rankedResponse },
        },
        handler: async (request) => domainAnalytics(db, request.principal.accountId, request.query, defaultHostname(app.ctx.config)),
      });
      app.get('/links-by-day', {
        // Named links only, each read within the caller's reach: open to a client for its own list.
        config: { auth: { scope: 'any' } },
        schema: {
          tags,
          summary: "An addition: scans per local day of each of the links named (a list page's sparklines in one read)",
          querystring: linkDaysQuerySchema,
          response: { 200: linkDaysResponse },
        },
        handler: async (request) => ({ data: await linkDailyScans(db, request.principal, request.query) }),
      });
    }
    if (perLink) {
      app.get('/actions', {
        config,
        schema: {
          tags,
          summary:
            "An addition: the link's funnel, its human scans and how many visitors tapped each action of its page (call, save the contact…), most first",
          ...params,
          querystring: actionsQuerySchema,
          response: { 200: actionsResponse },
        },
        handler: async (request) => actionFunnel(db, scopeOf(request), request.query),
      });
    }
    await app.register(analyticsExportRoute(perLink, params));
    app.get('/time', {
      config,
      schema: {
        tags,
        summary: `Scans${of} per local weekday and hour`,
        ...params,
        querystring: analyticsQuerySchema,
        response: { 200: timeResponse },
      },
      handler: async (request) => timeAnalytics(db, scopeOf(request), request.query),
    });
  };
}

export default analyticsRoutes(false);
