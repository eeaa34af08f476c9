// `npm start`: builds client and server when there is no current build, then runs the built
// server in this same process (one process: its RSS is the server's).
import path from 'node:path';
import { buildIfNeeded, root } from './build-if-needed.mjs';

// Stack traces name the TypeScript sources (dist/*.js.map). `npm start` passes
// --enable-source-maps; this covers `node scripts/start.mjs` too.
if (!process.sourceMapsEnabled) process.setSourceMapsEnabled(true);
if (!(await buildIfNeeded())) process.exit(1);
await import(path.join(root, 'dist/server.js'));
