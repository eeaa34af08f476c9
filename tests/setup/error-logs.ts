import { afterEach } from 'vitest';
import { takeUnexpectedErrorLogs, unexpectedErrorLogs } from '../support/test-app';

// A test whose app logged at error level fails, unless it expected those lines
// (`expectErrorLogs()` from tests/support/test-app.ts, or the app's `expectErrorLogs` option).
afterEach(() => {
  const unexpected = takeUnexpectedErrorLogs();
  if (unexpected.length > 0) throw unexpectedErrorLogs(unexpected);
});
