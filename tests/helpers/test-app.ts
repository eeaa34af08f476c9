// Moved to tests/support/test-app.ts (issue 10): this re-export keeps tests written against the
// old path compiling. Remove it once nothing imports tests/helpers/test-app.
export * from '../support/test-app';
