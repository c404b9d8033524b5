import { createFsStorage, type FsStorageOptions } from './fs-driver.js';
import { createS3Storage, type S3StorageOptions } from './s3-driver.js';
import type { ObjectStorage } from './types.js';

export type StorageConfig = ({ driver: 'fs' } & FsStorageOptions) | ({ driver: 's3' } & S3StorageOptions);

export function createStorage(config: StorageConfig): ObjectStorage {
  switch (config.driver) {
    case 'fs':
      return createFsStorage(config);
    case 's3':
      return createS3Storage(config);
  }
}

export * from './types.js';
export { assertValidKey, assertValidPrefix, InvalidKeyError, MAX_KEY_LENGTH } from './keys.js';
export { createFsStorage, type FsStorageOptions } from './fs-driver.js';
export { createS3Storage, type S3StorageOptions } from './s3-driver.js';
