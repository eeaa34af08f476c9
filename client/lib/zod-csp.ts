/**
 * Our Content-Security-Policy has no 'unsafe-eval'. zod 4 probes `new Function` when it builds
 * object schemas (its JIT fast path), which the browser reports as a CSP violation (Lighthouse
 * "Best Practices"). zod reads this global config object when it loads, so setting it here, before
 * any lazily loaded form, turns the probe off without putting zod in the home bundle.
 */
const g = globalThis as { __zod_globalConfig?: Record<string, unknown> };
g.__zod_globalConfig = { ...g.__zod_globalConfig, jitless: true };
