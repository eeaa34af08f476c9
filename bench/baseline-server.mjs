// The ceiling of one Node process on this machine: a bare node:http server that answers the same
// bytes the app answers (captured from the app by the bench), with no framework, no routing table,
// no validation. Run as `node bench/baseline-server.mjs <responses.json> <port>`.
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [file, portArg] = process.argv.slice(2);
/** @type {Record<string, {status: number, headers: Record<string, string>, body: string}>} */
const captured = JSON.parse(readFileSync(file, 'utf8'));
const responses = new Map(
  Object.entries(captured).map(([key, r]) => [
    key,
    { status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64') },
  ]),
);

function send(res, r) {
  res.writeHead(r.status, { ...r.headers, 'content-length': r.body.length });
  res.end(r.body);
}

const server = http.createServer((req, res) => {
  if (req.method === 'POST') {
    // Read the whole body like the app does, then answer the captured 201.
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => send(res, responses.get(`POST ${req.url}`)));
    return;
  }
  const br = /\bbr\b/.test(req.headers['accept-encoding'] ?? '');
  const r =
    (br && responses.get(`GET ${req.url} br`)) ||
    responses.get(`GET ${req.url}`) ||
    responses.get('GET /api/health');
  send(res, r);
});
server.keepAliveTimeout = 5000;
server.listen(Number(portArg), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
