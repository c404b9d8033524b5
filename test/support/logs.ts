/** A real pino logger whose lines a test reads back (parsed), instead of printing them. */
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

export interface CapturedLogs {
  logger: Logger;
  /** Every line written so far, parsed. */
  lines(): Array<Record<string, unknown> & { msg: string; level: number }>;
}

export function captureLogs(): CapturedLogs {
  const written: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, sink), lines: () => written.map((l) => JSON.parse(l)) };
}
