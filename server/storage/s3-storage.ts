import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type _Object,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import type { StorageConfig } from '../config';
import { IMAGE_WIDTHS, type EncodedImage, type ImageWidth } from './image';
import {
  LEFTOVER_AGE_MS,
  OBJECT_ID,
  StorageUnavailable,
  type DirectUploads,
  type ImageRestore,
  type ObjectStorage,
  type StoredMeta,
} from './object-storage';

type S3Config = Extract<StorageConfig, { kind: 's3' }>;

const META = 'meta.json';

/** A missing key or bucket, as the SDK reports it for GET, HEAD and the rest. */
function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** Any other failure of the store is an outage for the caller (503), with the SDK's reason kept. */
function unavailable(what: string, err: unknown): StorageUnavailable {
  const e = err as { name?: string; message?: string };
  return new StorageUnavailable(`object storage: ${what}: ${e?.name ?? ''} ${e?.message ?? ''}`, {
    cause: err,
  });
}

/**
 * Photos in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, s3rver), for several app instances
 * behind a load balancer (docs/decisions/015-object-storage.md). Keys, under the optional prefix:
 *   images/<id>/<width>.webp, images/<id>/meta.json   one stored photo; meta.json is written last,
 *                                                      so an object without it is not there yet
 *   incoming/<id>                                      a browser's upload, until it is checked
 */
export class S3ObjectStorage implements ObjectStorage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  /** Ids this process is storing right now (a second completion of the same link waits for none). */
  private readonly claiming = new Set<string>();
  private origin = '';
  readonly direct: DirectUploads;

  constructor(private readonly config: S3Config) {
    this.bucket = config.bucket;
    this.prefix = config.prefix;
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      // The SDK's default CRC32 checksums are not understood by every S3-compatible store, and
      // put a checksum of an empty body into presigned PUT URLs, which makes the upload fail.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A hung store must not hold an image request for ever.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
      maxAttempts: 3,
    });
    const origin = () => this.origin;
    this.direct = {
      get origin() {
        return origin();
      },
      presignPut: (id, opts) => this.presignPut(id, opts),
      takeIncoming: (id, maxBytes) => this.takeIncoming(id, maxBytes),
      dropIncoming: (id) => this.deleteKeys([this.incomingKey(id)]),
    };
  }

  close(): void {
    this.client.destroy();
  }

  private imageKey(id: string, file: string): string {
    return `${this.prefix}images/${id}/${file}`;
  }
  private incomingKey(id: string): string {
    return `${this.prefix}incoming/${id}`;
  }

  /** Fails start-up with a sentence when the bucket cannot be used, then sweeps leftovers. */
  async init(): Promise<void> {
    const where = `bucket "${this.bucket}"${this.config.endpoint ? ` at ${this.config.endpoint}` : ` in ${this.config.region}`}`;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
      const status = e.$metadata?.httpStatusCode;
      const why =
        status === 404
          ? 'it does not exist (create it first)'
          : status === 403 || status === 401
            ? 'access was refused (check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)'
            : `${e.name ?? 'error'}: ${e.message ?? 'no answer'}`;
      throw new Error(`STORAGE_URL: cannot use ${where}: ${why}.`, { cause: err });
    }
    // The origin the browser will PUT to, exactly as the presigner builds it (path or host style).
    this.origin = new URL(
      await this.presignPut('00000000-0000-4000-8000-000000000000', {
        expiresInSeconds: 60,
      }),
    ).origin;
    await this.sweep();
  }

  private async *list(under: string): AsyncGenerator<_Object> {
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: this.prefix + under,
            ContinuationToken: token,
          }),
        );
      } catch (err) {
        throw unavailable(`list ${under}`, err);
      }
      for (const o of page.Contents ?? []) if (o.Key) yield o;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  private async deleteKeys(keys: string[]): Promise<void> {
    // DeleteObjects takes 1,000 keys at most.
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      try {
        await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        );
      } catch (err) {
        throw unavailable('delete', err);
      }
    }
  }

  /**
   * Uploads never completed (incoming/ older than an hour: the link lived 15 minutes) and photos
   * whose writing stopped half-way (no meta.json after an hour). Other instances may be writing
   * fresher ones right now, so the age is the only safe test.
   */
  async sweep(now = Date.now()): Promise<void> {
    const old = (o: _Object) => now - (o.LastModified?.getTime() ?? now) >= LEFTOVER_AGE_MS;
    const stale: string[] = [];
    for await (const o of this.list('incoming/')) if (old(o)) stale.push(o.Key!);
    const byId = new Map<string, { keys: string[]; whole: boolean; old: boolean }>();
    const imagesAt = this.prefix.length + 'images/'.length;
    for await (const o of this.list('images/')) {
      const [id, file] = o.Key!.slice(imagesAt).split('/');
      if (!id) continue;
      const entry = byId.get(id) ?? { keys: [], whole: false, old: true };
      entry.keys.push(o.Key!);
      if (file === META) entry.whole = true;
      if (!old(o)) entry.old = false;
      byId.set(id, entry);
    }
    for (const e of byId.values()) if (!e.whole && e.old) stale.push(...e.keys);
    if (stale.length) await this.deleteKeys(stale);
  }

  isValidId(id: string): boolean {
    return OBJECT_ID.test(id);
  }

  private async head(key: string): Promise<{ size: number; modified: number } | undefined> {
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: res.ContentLength ?? 0, modified: res.LastModified?.getTime() ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw unavailable(`head ${key}`, err);
    }
  }

  private async get(key: string, maxBytes = Infinity): Promise<Buffer | 'too-large' | undefined> {
    let res;
    try {
      res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw unavailable(`get ${key}`, err);
    }
    if ((res.ContentLength ?? 0) > maxBytes) {
      (res.Body as Readable | undefined)?.destroy();
      return 'too-large';
    }
    try {
      return Buffer.from(await res.Body!.transformToByteArray());
    } catch (err) {
      throw unavailable(`read ${key}`, err);
    }
  }

  private async put(key: string, body: Buffer, contentType: string): Promise<void> {
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
        }),
      );
    } catch (err) {
      throw unavailable(`put ${key}`, err);
    }
  }

  async exists(id: string): Promise<boolean> {
    return this.isValidId(id) && (await this.head(this.imageKey(id, META))) !== undefined;
  }

  /**
   * Single use of an upload link: refused while this process stores the id or once it is stored.
   * Two instances completing the same link at the same instant would both store the same bytes
   * (the link is the admin's own); the decision record says why that is accepted.
   */
  async claim(id: string): Promise<boolean> {
    if (this.claiming.has(id)) return false;
    this.claiming.add(id);
    if (await this.exists(id).catch(() => false)) {
      this.claiming.delete(id);
      return false;
    }
    return true;
  }

  async isClaimed(id: string): Promise<boolean> {
    return this.claiming.has(id) || (await this.exists(id));
  }

  async save(id: string, image: EncodedImage): Promise<void> {
    if (!this.isValidId(id)) throw new Error('invalid object id');
    const written: string[] = [];
    try {
      await Promise.all(
        image.variants.map(async (v) => {
          const key = this.imageKey(id, `${v.width}.webp`);
          await this.put(key, v.data, 'image/webp');
          written.push(key);
        }),
      );
      // Last: readers take an object without meta.json as absent.
      const meta: StoredMeta = { width: image.width, height: image.height };
      await this.put(
        this.imageKey(id, META),
        Buffer.from(JSON.stringify(meta)),
        'application/json',
      );
    } catch (err) {
      // What is still being written when this runs is left to the sweep (no meta.json).
      await this.deleteKeys(written).catch(() => undefined);
      throw err;
    } finally {
      this.claiming.delete(id);
    }
  }

  async meta(id: string): Promise<StoredMeta | undefined> {
    if (!this.isValidId(id)) return undefined;
    const data = await this.get(this.imageKey(id, META));
    if (!Buffer.isBuffer(data)) return undefined;
    try {
      return JSON.parse(data.toString('utf8')) as StoredMeta;
    } catch {
      return undefined;
    }
  }

  async savedAt(id: string): Promise<number | undefined> {
    if (!this.isValidId(id)) return undefined;
    return (await this.head(this.imageKey(id, META)))?.modified;
  }

  async read(
    id: string,
    width: ImageWidth = IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!,
  ): Promise<Buffer | undefined> {
    if (!this.isValidId(id)) return undefined;
    const data = await this.get(this.imageKey(id, `${width}.webp`));
    return Buffer.isBuffer(data) ? data : undefined;
  }

  async remove(id: string): Promise<void> {
    if (!this.isValidId(id)) return;
    const keys: string[] = [];
    for await (const o of this.list(`images/${id}/`)) keys.push(o.Key!);
    // meta.json on its own first (one batch has no order): the photo is gone for readers even if
    // the rest fails, and the sweep then removes the rest as a half-written photo.
    const meta = this.imageKey(id, META);
    if (keys.includes(meta)) await this.deleteKeys([meta]);
    const rest = keys.filter((k) => k !== meta);
    if (rest.length) await this.deleteKeys(rest);
  }

  async listFiles(): Promise<string[]> {
    const imagesAt = this.prefix.length + 'images/'.length;
    const files = new Map<string, string[]>();
    for await (const o of this.list('images/')) {
      const name = o.Key!.slice(imagesAt);
      const id = name.split('/')[0]!;
      files.set(id, [...(files.get(id) ?? []), name]);
    }
    return [...files.values()]
      .filter((names) => names.some((n) => n.endsWith(`/${META}`)))
      .flat()
      .sort();
  }

  async readFile(name: string): Promise<Buffer | undefined> {
    const data = await this.get(`${this.prefix}images/${name}`);
    return Buffer.isBuffer(data) ? data : undefined;
  }

  /**
   * A bucket has no folder to swap in: the backup's files are written in place (ids are random,
   * so they do not overwrite other photos), and at commit every other photo is deleted. The app
   * does not run during a restore, so nobody sees the mix in between.
   */
  async beginRestore(): Promise<ImageRestore> {
    const before = new Set<string>();
    for await (const o of this.list('images/')) before.add(o.Key!);
    const written = new Set<string>();
    return {
      write: async (name, data) => {
        const key = `${this.prefix}images/${name}`;
        await this.put(key, data, name.endsWith('.json') ? 'application/json' : 'image/webp');
        written.add(key);
      },
      commit: () => this.deleteKeys([...before].filter((k) => !written.has(k))),
      abort: () => this.deleteKeys([...written].filter((k) => !before.has(k))),
    };
  }

  private async presignPut(
    id: string,
    opts: { expiresInSeconds: number; size?: number },
  ): Promise<string> {
    return getSignedUrl(
      this.client,
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.incomingKey(id),
        ContentLength: opts.size,
      }),
      {
        expiresIn: opts.expiresInSeconds,
        // Signed, the length is part of the signature: the store refuses any other body size.
        signableHeaders: opts.size === undefined ? undefined : new Set(['content-length']),
      },
    );
  }

  private async takeIncoming(id: string, maxBytes: number) {
    const data = await this.get(this.incomingKey(id), maxBytes);
    return data ?? ('missing' as const);
  }
}
