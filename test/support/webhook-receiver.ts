/**
 * A real HTTP receiver of webhooks on loopback, as a user's would be: it verifies each request with
 * the Standard Webhooks library (`standardwebhooks`) under the secrets it is given, and keeps what
 * came. How it answers is set per test: 2xx, another status, or never (a hung receiver). It can
 * be stopped and started again on the same port (a receiver that goes down mid-way).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
  /** Which of the receiver's secrets verified it (by position); empty: none did. */
  verifiedBy: number[];
  /** The status the receiver answered. */
  answered: number | 'none';
  at: number;
}

export type Answer = number | 'hang';

export interface TestReceiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** Requests answered 2xx, by webhook-id. */
  acceptedIds(): string[];
  /** The most requests held unanswered at once (answer 'hang'). */
  maxHeld: number;
  /** Secrets to verify with; a request no secret verifies is answered 401. */
  secrets: string[];
  /** How the next requests are answered (default 200). */
  answer: Answer | ((req: ReceivedWebhook) => Answer);
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hooks'): Promise<TestReceiver> {
  const hung = new Set<ServerResponse>();
  let server: Server | null = null;
  let port = 0;
  const receiver: TestReceiver = {
    url: '',
    port: 0,
    received: [],
    maxHeld: 0,
    secrets: [],
    answer: 200,
    acceptedIds: () => receiver.received.filter((r) => typeof r.answered === 'number' && r.answered < 300).map((r) => r.id),
    start: async () => {
      server = createServer((req, res) => void handle(req, res));
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
      receiver.port = port;
      receiver.url = `http://127.0.0.1:${port}${path}`;
    },
    stop: async () => {
      for (const res of hung) res.destroy();
      hung.clear();
      const s = server;
      server = null;
      if (!s) return;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    close: () => receiver.stop(),
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = {
      'webhook-id': String(req.headers['webhook-id'] ?? ''),
      'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
      'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
    };
    const verifiedBy = receiver.secrets.flatMap((secret, i) => {
      try {
        new Webhook(secret).verify(body, headers);
        return [i];
      } catch {
        return [];
      }
    });
    let payload: ReceivedWebhook['payload'];
    try {
      payload = JSON.parse(body) as ReceivedWebhook['payload'];
    } catch {
      payload = { type: '', timestamp: '', data: {} };
    }
    const entry: ReceivedWebhook = {
      id: headers['webhook-id'],
      timestamp: headers['webhook-timestamp'],
      signature: headers['webhook-signature'],
      body,
      payload,
      verifiedBy,
      answered: 'none',
      at: Date.now(),
    };
    receiver.received.push(entry);
    const answer = typeof receiver.answer === 'function' ? receiver.answer(entry) : receiver.answer;
    if (answer === 'hang') {
      hung.add(res);
      receiver.maxHeld = Math.max(receiver.maxHeld, hung.size);
      res.on('close', () => hung.delete(res));
      return;
    }
    const status = receiver.secrets.length > 0 && verifiedBy.length === 0 ? 401 : answer;
    entry.answered = status;
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(status < 300 ? 'ok' : `no: ${status}`);
  }

  await receiver.start();
  return receiver;
}
