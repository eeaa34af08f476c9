import {
  CreateBucketCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutBucketCorsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** s3rver's built-in account. */
const ACCESS_KEY = 'S3RVER';

export interface S3TestServer {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  bucket: string;
  /** The app's environment for this bucket (optionally under a key prefix). */
  env(prefix?: string): Record<string, string>;
  /** An SDK client on the server, for looking into the bucket from a test. */
  client: S3Client;
  /** Every key under `prefix`, sorted. */
  keys(prefix?: string): Promise<string[]>;
  get(key: string): Promise<Buffer | undefined>;
  put(key: string, body: Buffer | string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver, in this process) on a port the kernel picks, with one
 * bucket whose CORS rules let a browser PUT to it from any origin, as the README asks of a
 * production bucket. One per test file: it starts in ~50 ms.
 */
export async function startS3Server(bucket = 'relief-photos'): Promise<S3TestServer> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'relief-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  await client.send(
    new PutBucketCorsCommand({
      Bucket: bucket,
      CORSConfiguration: {
        CORSRules: [
          {
            AllowedOrigins: ['*'],
            AllowedMethods: ['PUT'],
            AllowedHeaders: ['*'],
            // Uppy reads the ETag of the PUT's answer.
            ExposeHeaders: ['ETag'],
            MaxAgeSeconds: 3000,
          },
        ],
      },
    }),
  );
  let closed = false;
  return {
    endpoint,
    bucket,
    client,
    env: (prefix) => ({
      STORAGE_URL: `s3://${bucket}?endpoint=${endpoint}&region=us-east-1${prefix ? `&prefix=${prefix}` : ''}`,
      AWS_ACCESS_KEY_ID: ACCESS_KEY,
      AWS_SECRET_ACCESS_KEY: ACCESS_KEY,
    }),
    async keys(prefix = '') {
      const out: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        out.push(...(page.Contents ?? []).map((o) => o.Key!));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out.sort();
    },
    async get(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return Buffer.from(await res.Body!.transformToByteArray());
      } catch {
        return undefined;
      }
    },
    async put(key, body) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    },
    async close() {
      if (closed) return;
      closed = true;
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
