/**
 * UTM templates (an addition): an account's named UTM parameters, which the console copies into a
 * link's `utm`. Read with templates.read, written with templates.create/update/delete, as QR
 * templates are: viewers and clients read them, editors and up write them.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createUtmTemplate,
  deleteUtmTemplate,
  getUtmTemplate,
  listUtmTemplates,
  updateUtmTemplate,
  UTM_TEMPLATES_PER_ACCOUNT,
} from '#domain/utm/utm-templates.js';
import { messageResponse, resourceParams } from '../../schemas.js';
import { createUtmTemplateBody, updateUtmTemplateBody, utmTemplateResponse } from './schemas.js';
import { utmTemplateView } from './view.js';

const idParams = resourceParams('id', 'UTM template');
const tags = ['utm-templates'];

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get('', {
    config: { auth: { scope: 'templates.read' } },
    schema: {
      tags,
      summary: "List the account's UTM templates by name",
      response: { 200: z.object({ data: z.array(utmTemplateResponse) }) },
    },
    handler: async (request) => ({ data: (await listUtmTemplates(db, request.principal.accountId)).map(utmTemplateView) }),
  });

  app.get('/:id', {
    config: { auth: { scope: 'templates.read' } },
    schema: { tags, summary: 'Get a UTM template', params: idParams, response: { 200: z.object({ data: utmTemplateResponse }) } },
    handler: async (request) => ({ data: utmTemplateView(await getUtmTemplate(db, request.principal.accountId, request.params.id)) }),
  });

  app.post('', {
    config: { auth: { scope: 'templates.create' }, audit: { entity: 'utm_template', action: 'create', id: 'response' } },
    schema: {
      tags,
      summary: 'Create a UTM template',
      description: `At most ${UTM_TEMPLATES_PER_ACCOUNT} per account (409 \`utm_template_limit_reached\`); a name the account has already, in any case, is a 409 \`utm_template_name_taken\`.`,
      body: createUtmTemplateBody,
      response: { 200: z.object({ data: utmTemplateResponse }) },
    },
    handler: async (request) => ({ data: utmTemplateView(await createUtmTemplate(db, request.principal.accountId, request.body)) }),
  });

  app.patch('/:id', {
    config: { auth: { scope: 'templates.update' }, audit: { entity: 'utm_template', action: 'update' } },
    schema: {
      tags,
      summary: "Change a UTM template's name or parameters (the links it filled keep theirs)",
      description: 'A name the account has already, in any case, is a 409 `utm_template_name_taken`.',
      params: idParams,
      body: updateUtmTemplateBody,
      response: { 200: z.object({ data: utmTemplateResponse }) },
    },
    handler: async (request) => ({
      data: utmTemplateView(await updateUtmTemplate(db, request.principal.accountId, request.params.id, request.body)),
    }),
  });

  app.delete('/:id', {
    config: { auth: { scope: 'templates.delete' }, audit: { entity: 'utm_template', action: 'delete' } },
    schema: {
      tags,
      summary: 'Delete a UTM template (the links it filled keep their parameters)',
      params: idParams,
      response: { 200: messageResponse },
    },
    handler: async (request) => {
      await deleteUtmTemplate(db, request.principal.accountId, request.params.id);
      return { message: 'UTM template deleted' };
    },
  });
};

export default routes;
