import { format } from 'node:util';
import { afterEach } from 'vitest';

/**
 * The unit project: a test that writes to console.error fails (React reports hydration
 * mismatches, act() misuse and failed renders there), unless it said it expects those lines with
 * `expectConsoleErrors()`, or replaced console.error itself (vi.spyOn) to read them.
 */
interface ConsoleWatch {
  lines: string[];
  allowed: RegExp[];
}
const KEY = Symbol.for('relief.consoleErrors');
const holder = globalThis as unknown as Record<symbol, ConsoleWatch | undefined>;
// The unit project shares modules between its files (isolate: false), so this file runs once per
// test file: console.error is wrapped once.
const watch: ConsoleWatch = (holder[KEY] ??= (() => {
  const w: ConsoleWatch = { lines: [], allowed: [] };
  const original = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    w.lines.push(format(...args));
    original(...args);
  };
  return w;
})());

/** The current test expects console.error lines, each matching `pattern` (any without one). */
export function expectConsoleErrors(pattern: RegExp = /[\s\S]/): void {
  watch.allowed.push(pattern);
}

afterEach(() => {
  const unexpected = watch.lines
    .splice(0)
    .filter((line) => !watch.allowed.some((p) => p.test(line)));
  watch.allowed = [];
  if (unexpected.length > 0)
    throw new Error(
      `console.error was called (expectConsoleErrors() if the test expects it):\n${unexpected
        .map((l) => l.slice(0, 2000))
        .join('\n')}`,
    );
});
