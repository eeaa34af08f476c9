// Moved to tests/support/server-process.ts (issue 10): this re-export keeps older imports
// compiling. Remove it once nothing imports it from here.
export * from '../../support/server-process';
