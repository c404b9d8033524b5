import type { FastifyReply } from 'fastify';
import { pageHeaders } from './layout.js';
import type { Page } from './types.js';

/** Answers with a page: its status, the default page headers (CSP and all) plus its own. */
export function sendPage(reply: FastifyReply, page: Page) {
  return reply.code(page.status).headers({ ...pageHeaders, ...page.headers }).send(page.body);
}
