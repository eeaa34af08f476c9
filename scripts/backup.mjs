// `npm run backup` / `npm run restore`: builds when needed (like `npm start`), then runs the
// built command, which also exists in the production image as dist/backup.js.
import path from 'node:path';
import { buildIfNeeded, root } from './build-if-needed.mjs';

if (!(await buildIfNeeded((s) => process.stderr.write(`${s}\n`)))) process.exit(1);
await import(path.join(root, 'dist/backup.js'));
