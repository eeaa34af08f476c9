import type { TestApp } from '../../support/test-app';

export interface RouteInfo {
  method: string;
  url: string;
}

/** Every route of the app, read from Fastify's route tree (so a new route is covered at once). */
export function listRoutes(app: TestApp['app']): RouteInfo[] {
  const out: RouteInfo[] = [];
  const stack: { depth: number; path: string }[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([\s│├└─]*)(\S.*?) \(([A-Z, ]+)\)$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length;
    while (stack.length && stack[stack.length - 1]!.depth >= depth) stack.pop();
    const parent = stack[stack.length - 1]?.path ?? '';
    const segment = m[2]!;
    const path = parent === '' ? segment : parent === '/' ? `/${segment}` : parent + segment;
    stack.push({ depth, path });
    for (const method of m[3]!.split(',').map((s) => s.trim())) out.push({ method, url: path });
  }
  return out;
}
