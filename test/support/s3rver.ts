/** A real S3-protocol server (s3rver) on a free loopback port, with its own temporary folder. */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// s3rver ships no type declarations, so describe just what we use.
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: Server;
}
type S3rverOptions = { address: string; port: number; directory: string; silent: boolean };
// Loaded with require (no ESM entry), so dependency checkers (knip) do not see it: knip.json names it.
const S3rver = createRequire(import.meta.url)('s3rver') as new (opts: S3rverOptions) => S3rverServer;

/** s3rver knows only this account; it checks the access key but not v4 signatures. */
export const S3RVER_KEY = 'S3RVER';

export interface RunningS3rver {
  endpoint: string;
  httpServer: Server;
  close(): Promise<void>;
}

export async function startS3rver(): Promise<RunningS3rver> {
  const directory = await mkdtemp(join(tmpdir(), 'qrlinks-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    httpServer: server.httpServer,
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** A storage driver a suite runs against: the api's environment for it, and how to stop what was started. */
export interface StorageDriver {
  name: 'fs' | 's3';
  start(): Promise<{ env: Record<string, string>; stop(): Promise<void> }>;
}

/** The fs driver (the test default) and the s3 driver on an s3rver of its own, with `bucket`. */
export function storageDrivers(bucket: string): StorageDriver[] {
  return [
    { name: 'fs', start: async () => ({ env: {}, stop: async () => {} }) },
    {
      name: 's3',
      start: async () => {
        const server = await startS3rver();
        const env = {
          STORAGE_DRIVER: 's3',
          S3_ENDPOINT: server.endpoint,
          S3_ACCESS_KEY: S3RVER_KEY,
          S3_SECRET_KEY: S3RVER_KEY,
          S3_BUCKET: bucket,
        };
        return { env, stop: () => server.close() };
      },
    },
  ];
}
