import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { withErrorResponses } from '../../error-responses.js';
import { API_DESCRIPTION } from './api-conventions.js';

/** The OpenAPI document, generated from the routes' zod schemas; UI at /api/v1/docs, JSON at /api/v1/docs/json. */
export default fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'qrlinks API',
        description: API_DESCRIPTION,
        version: '1.0.0',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Basic <API_KEY>' },
        },
      },
      security: [{ apiKey: [] }],
    },
    transform: (input) => withErrorResponses(input, jsonSchemaTransform(input)),
  });
  // The docs page is on the console's origin, where the console's session lives: it gets the
  // plugin's CSP (its inline scripts and styles by hash, nothing from elsewhere), made stricter:
  // no framing, no https: wildcard for styles and fonts, and no upgrade-insecure-requests, which
  // would break an install served over plain http.
  await app.register(swaggerUi, {
    routePrefix: '/api/v1/docs',
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
        .replace(/ https:/g, '')
        .replace("img-src 'self' data: validator.swagger.io", "img-src 'self' data:")
        .replace(/\s*upgrade-insecure-requests;/, ''),
  });
});
