import { request as httpRequest, type IncomingMessage } from 'node:http';

/**
 * A GET over real HTTP with an API key, for answers written as a stream; `onFirstBytes` runs
 * (with the response paused) when the first body bytes arrive.
 */
export function streamedGet(url: string, key: string, onFirstBytes?: () => Promise<void>): Promise<{ res: IncomingMessage; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { authorization: `Basic ${key}` } }, (res) => {
      const chunks: Buffer[] = [];
      let first = true;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (first && onFirstBytes) {
          first = false;
          res.pause();
          onFirstBytes().then(() => res.resume(), reject);
        }
      });
      res.on('end', () => resolve({ res, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
