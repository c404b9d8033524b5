import { ServerResponse, type IncomingMessage, type ServerOptions } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { nodeInternalsVerified } from './node-internals.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** GracefulHttp.drain of the server's graceful shutdown, for the entry point's shutdown steps. */
    drain(ms: number): Promise<void>;
  }
}

export interface GracefulHttp {
  /** Fastify's `http` option: the server's responses come from a class that knows about shutdown. */
  serverOptions: ServerOptions;
  /** Registers the preClose hook that starts answering with `Connection: close`, and decorates the app with drain(). */
  register(app: FastifyInstance): void;
  /**
   * The first phase of a shutdown: `/ready` answers 503 (the caller's route reads `draining`) while
   * every request is still served, each answer saying `Connection: close`, for `ms`; then resolves,
   * and the caller closes the server.
   */
  drain(ms: number): Promise<void>;
  /** True from the start of drain(): `/ready` answers 503 so balancers send new requests elsewhere. */
  readonly draining: boolean;
}

/**
 * A shutdown in two phases. First the drain (drain(), SHUTDOWN_READY_DRAIN_MS): `/ready` fails
 * while every request is still served, so a balancer checking it stops sending new requests here
 * before anything is refused (docs/decisions/0395). Then the close: once the server starts closing, answers to requests still in flight say `Connection: close`,
 * so their keep-alive sockets end with the answer instead of holding shutdown open until the
 * keep-alive timeout (idle sockets are closed by Fastify's `forceCloseConnections: 'idle'`).
 * Fastify closes the idle sockets once, when closing starts; a socket whose answer had just gone
 * out then is not idle yet in Node's eyes (its parser is still finishing that request), and would
 * keep the server open for the whole keep-alive timeout (72 s). So idle sockets are closed again
 * every CLOSE_IDLE_EVERY_MS until the server has closed.
 *
 * Done in the response class the server is created with, not in an onSend hook: a hook runs for
 * every request, and on the redirect that cost about 4 µs of a ~30 µs scan (measured with wrk);
 * this costs one flag check when the head is written. Shared by the api and redirect servers.
 */
const CLOSE_IDLE_EVERY_MS = 100;

export function gracefulHttp(nodeVersion: string = process.versions.node): GracefulHttp {
  let closing = false;
  let draining = false;
  const state = {
    // While draining, each keep-alive socket ends with its next answer: the client's next request
    // opens a new connection, which a balancer that has seen /ready fail sends to another process.
    // A socket left idle through the whole drain is one the balancer no longer uses, so closing it
    // when the server closes races with nothing.
    get closing() {
      return closing || draining;
    },
  };
  const ResponseClass = nodeInternalsVerified(nodeVersion) ? constructorFunctionResponse(state) : derivedClassResponse(state);
  const graceful: GracefulHttp = {
    serverOptions: { ServerResponse: ResponseClass },
    register(app) {
      app.decorate('drain', (ms: number) => graceful.drain(ms));
      let sweep: NodeJS.Timeout | undefined;
      app.addHook('preClose', async () => {
        closing = true;
        if (!app.server.listening) return;
        sweep = setInterval(() => app.server.closeIdleConnections(), CLOSE_IDLE_EVERY_MS).unref();
        app.server.once('close', () => clearInterval(sweep));
      });
      app.addHook('onClose', async () => clearInterval(sweep));
    },
    async drain(ms) {
      draining = true;
      if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    },
    get draining() {
      return draining;
    },
  };
  return graceful;
}

/** The plain way, for Node versions the constructor function was not measured on. */
function derivedClassResponse(state: { readonly closing: boolean }): typeof ServerResponse {
  return class ShutdownAwareResponse<R extends IncomingMessage = IncomingMessage> extends ServerResponse<R> {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override writeHead(...args: any[]): this {
      if (state.closing) this.shouldKeepAlive = false;
      return (super.writeHead as (...a: unknown[]) => this)(...args);
    }
  };
}

/**
 * A constructor function, not `class extends ServerResponse`: on Node 20 the derived class
 * constructor made every response about a quarter slower on a bare Fastify route (wrk, measured),
 * this costs nothing measurable. On Node 24 the derived class costs ~6% more CPU per request than
 * this (docs/decisions/0416). Node's own response classes are built the same way.
 */
function constructorFunctionResponse(state: { readonly closing: boolean }): typeof ServerResponse {
  // Node's ServerResponse is a plain function too (it calls itself on a new `this`), which is what
  // lets a constructor function inherit from it; checked here, not assumed.
  const parent = asResponseFunction(ServerResponse);
  function ShutdownAwareResponse(this: ServerResponse, req: IncomingMessage, options?: unknown) {
    parent.call(this, req, options);
  }
  Object.setPrototypeOf(ShutdownAwareResponse.prototype, ServerResponse.prototype);
  Object.setPrototypeOf(ShutdownAwareResponse, ServerResponse);
  // Node writes the Connection header from shouldKeepAlive when the head is stored, which
  // writeHead leads to (Fastify always calls it; an implicit head goes through it too).
  const writeHead = ServerResponse.prototype.writeHead as (this: ServerResponse, ...args: unknown[]) => ServerResponse;
  ShutdownAwareResponse.prototype.writeHead = function (this: ServerResponse, statusCode: unknown, reason: unknown, headers: unknown) {
    if (state.closing) this.shouldKeepAlive = false;
    return writeHead.call(this, statusCode, reason, headers);
  };
  const made: unknown = ShutdownAwareResponse;
  if (!isResponseClass(made)) throw new Error('the shutdown-aware response does not inherit from ServerResponse');
  return made;
}

/** ServerResponse as what it is at run time on the verified Node versions: a function that initializes `this`. */
type ResponseFunction = (this: ServerResponse, req: IncomingMessage, options?: unknown) => void;

function asResponseFunction(f: unknown): ResponseFunction {
  if (!isResponseFunction(f)) throw new Error('node:http ServerResponse is not callable as a function on this Node version');
  return f;
}

function isResponseFunction(f: unknown): f is ResponseFunction {
  // A `class` is a function too, but calling one without `new` throws.
  return typeof f === 'function' && !Function.prototype.toString.call(f).startsWith('class');
}

/** A constructor whose instances are ServerResponses, and that inherits ServerResponse's statics: usable wherever the class is. */
function isResponseClass(f: unknown): f is typeof ServerResponse {
  return typeof f === 'function' && f.prototype instanceof ServerResponse && Object.getPrototypeOf(f) === ServerResponse;
}
