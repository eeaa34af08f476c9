// Shared by `npm start` and the test setup: is there an up-to-date build of client and server?
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outputs = [
  path.join(root, 'dist/server.js'),
  path.join(root, 'dist/backup.js'),
  path.join(root, 'dist/client/index.html'),
  path.join(root, 'dist/ssr/entry-server.js'),
];
/** What `npm run build` reads (besides node_modules): folders and files of the checkout. */
export const BUILD_SOURCES = [
  'client',
  'server',
  'shared',
  'config',
  'vite.config.ts',
  'package.json',
  // The server bundle holds its packages' code: a changed lockfile means other code to bundle.
  'package-lock.json',
  'scripts/build-server.mjs',
];

function newest(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(p)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    latest = Math.max(latest, newest(path.join(p, entry)));
  }
  return latest;
}

export function buildIsCurrent() {
  if (!outputs.every((f) => existsSync(f))) return false;
  const srcTime = Math.max(...BUILD_SOURCES.map((s) => newest(path.join(root, s))));
  return srcTime <= Math.min(...outputs.map((f) => statSync(f).mtimeMs));
}

/**
 * Runs `npm run build` unless the build is current; resolves to false if the build failed. It does
 * not block the caller's event loop: the test set-up makes its template databases meanwhile.
 */
export function buildIfNeeded(log = console.log) {
  if (buildIsCurrent()) return Promise.resolve(true);
  log(
    existsSync(outputs[0])
      ? 'Sources changed since the last build: rebuilding…'
      : 'No build found: building…',
  );
  return new Promise((resolve) => {
    // Always a production build: under Vitest NODE_ENV is "test", and Vite then bundles React's
    // development build (480 KB instead of 277 KB), which the e2e tests, the bench and a later
    // `npm start` would all have used.
    const child = spawn('npm', ['run', 'build'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}
