import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per request, written when it completes (method, URL, status, time), instead of
 * Fastify's two (one as it comes in, one as it completes). Health checks — a balancer's and an
 * orchestrator's, several a second per process — write none unless they fail (docs/decisions/0396).
 */
export class OneLinePerRequest extends LogController {
  private readonly quietPaths: ReadonlySet<string>;

  constructor(quietPaths: readonly string[]) {
    super();
    this.quietPaths = new Set(quietPaths);
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!error && reply.statusCode < 400 && this.quietPaths.has(request.url.split('?', 1)[0]!)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
