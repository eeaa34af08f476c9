import type { EncodedImage, ImageWidth } from './image';

export const OBJECT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface StoredMeta {
  width: number;
  height: number;
}

/**
 * Leftovers of interrupted uploads are removed only once this old: several instances share the
 * store, and a fresh one may be another instance's upload being written right now (reliability test R9). An upload
 * URL lives 15 minutes, so its single-use marker is useless after that too.
 */
export const LEFTOVER_AGE_MS = 60 * 60_000;

/**
 * Where the delivery photos live: local disk (the default) or an S3-compatible bucket
 * (docs/decisions/015-object-storage.md). One object is one uploaded photo: its WebP variants and
 * its size, written so that it is either whole or absent to readers.
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /**
   * Creates what is missing and sweeps leftovers. `exclusive`: this process alone uses the store
   * (PGlite locks DATA_DIR), so every leftover is a crashed upload's and goes at once.
   */
  init(exclusive?: boolean): Promise<void>;
  /** Removes interrupted uploads and spent single-use markers older than LEFTOVER_AGE_MS. */
  sweep(): Promise<void>;
  isValidId(id: string): boolean;
  /** Claims the id once: a second claim (a replayed upload link) fails. */
  claim(id: string): Promise<boolean>;
  isClaimed(id: string): Promise<boolean>;
  save(id: string, image: EncodedImage): Promise<void>;
  meta(id: string): Promise<StoredMeta | undefined>;
  /** When the object was stored (ms), or undefined when it does not exist. */
  savedAt(id: string): Promise<number | undefined>;
  read(id: string, width?: ImageWidth): Promise<Buffer | undefined>;
  /** Deletes an object (an image no update uses any more). */
  remove(id: string): Promise<void>;
  /** Backup: every file of every whole object, as "<id>/<name>", sorted. */
  listFiles(): Promise<string[]>;
  readFile(name: string): Promise<Buffer | undefined>;
  /** Restore: replaces every stored file with the ones written, at commit. */
  beginRestore(): Promise<ImageRestore>;
  /** Present when browsers upload straight to the store instead of to this server. */
  readonly direct?: DirectUploads;
  /** Lets go of connections (the app is closing). */
  close(): void;
}

export interface ImageRestore {
  write(name: string, data: Buffer): Promise<void>;
  /** The written files become the store's whole content. */
  commit(): Promise<void>;
  /** Nothing changes (as far as the store allows). */
  abort(): Promise<void>;
}

/**
 * Browser → bucket uploads: a presigned PUT of the original bytes to a holding key, then the
 * server reads them back, checks and re-encodes them like an upload it received itself.
 */
export interface DirectUploads {
  /** The origin browsers PUT to (the Content-Security-Policy's connect-src needs it). */
  readonly origin: string;
  /** A presigned PUT URL for the holding key of `id`; with `size`, the store refuses other lengths. */
  presignPut(id: string, opts: { expiresInSeconds: number; size?: number }): Promise<string>;
  /** The uploaded bytes, or why there are none to read. */
  takeIncoming(id: string, maxBytes: number): Promise<Buffer | 'missing' | 'too-large'>;
  dropIncoming(id: string): Promise<void>;
}

/** The store cannot be reached or refused us: the service is unavailable, not the request wrong. */
export class StorageUnavailable extends Error {}
