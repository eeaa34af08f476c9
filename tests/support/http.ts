import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Milliseconds from sending to the last byte. */
  ms: number;
}

export interface RawRequestOptions {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Sent as JSON with its content type. */
  json?: unknown;
  cookie?: string;
  /** A keep-alive agent, so a test decides exactly how many sockets it opens; default none. */
  agent?: http.Agent | false;
  timeoutMs?: number;
}

/**
 * A request exactly as written, over node:http: fetch normalises paths ("../"), refuses some header
 * values and pools connections on its own terms, so attacks on the raw protocol and load tests that
 * count sockets go through here. A dead server shows as a socket error.
 */
export function rawRequest(baseUrl: string, opts: RawRequestOptions): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const started = Date.now();
  const headers: Record<string, string> = { ...opts.headers };
  let body = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] = 'application/json';
  }
  if (opts.cookie) headers.cookie = opts.cookie;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: opts.method ?? 'GET',
        path: opts.path,
        headers,
        agent: opts.agent ?? false,
        timeout: opts.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: Date.now() - started,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    // A keep-alive socket the server closed in between is not the server's fault: say so.
    req.on('error', (err) => reject(Object.assign(err, { reusedSocket: req.reusedSocket })));
    req.end(body);
  });
}

/** rawRequest with the method and path as arguments (the load and crash tests' shorthand). */
export const request = (
  baseUrl: string,
  method: string,
  path: string,
  opts: Omit<RawRequestOptions, 'method' | 'path'> = {},
) => rawRequest(baseUrl, { ...opts, method, path });
