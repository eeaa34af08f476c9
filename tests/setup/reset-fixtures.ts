import { test } from '../support/fixtures';

// The API projects share modules between the files a worker runs (isolate: false in
// vitest.config.ts), so they share this `test` object too: a file's top-level
// `test.override('appOptions', …)` would otherwise carry over to the next file in the worker.
test.override('appOptions', {});
