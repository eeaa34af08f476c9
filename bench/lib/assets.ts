import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

export interface JsSize {
  files: string[];
  rawKb: number;
  gzipKb: number;
  brotliKb: number;
}

const kb = (n: number) => Math.round(n / 102.4) / 10;

/**
 * The JavaScript the home route loads up front: every script and modulepreload that
 * dist/client/index.html references (lazy chunks are not counted: the home does not fetch them).
 */
export function homeJsSize(clientDir: string): JsSize | null {
  const index = path.join(clientDir, 'index.html');
  if (!existsSync(index)) return null;
  const html = readFileSync(index, 'utf8');
  const refs = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+\.js)"/g)) refs.add(m[1]!);
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+\.js)"/g))
    refs.add(m[1]!);
  let raw = 0;
  let gz = 0;
  let br = 0;
  for (const ref of refs) {
    const file = path.join(clientDir, ref.replace(/^\//, ''));
    if (!existsSync(file)) continue;
    const bytes = readFileSync(file);
    raw += bytes.length;
    gz += gzipSync(bytes, { level: 9 }).length;
    br += brotliCompressSync(bytes).length;
  }
  return { files: [...refs], rawKb: kb(raw), gzipKb: kb(gz), brotliKb: kb(br) };
}
