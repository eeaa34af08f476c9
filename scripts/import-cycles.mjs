#!/usr/bin/env node
// Lists import cycles among our own TypeScript files (type-only imports count: they couple modules
// as much as value imports do). madge is not installed; this follows relative and `@shared/`
// specifiers, which is all this repository uses. Exit code 1 when a cycle exists.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dirs = process.argv.slice(2).length ? process.argv.slice(2) : ['server', 'shared', 'client'];
const EXT = ['.ts', '.tsx', '/index.ts', '/index.tsx'];

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

function resolve(from, spec) {
  let base;
  if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  else if (spec.startsWith('@shared/')) base = path.join(root, 'shared', spec.slice(8));
  else return undefined;
  if (existsSync(base) && statSync(base).isFile()) return base;
  for (const e of EXT) if (existsSync(base + e)) return base + e;
  return undefined;
}

const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/g;
const graph = new Map();
for (const file of dirs.flatMap((d) => walk(path.join(root, d)))) {
  const src = readFileSync(file, 'utf8');
  const deps = new Set();
  for (const m of src.matchAll(IMPORT)) {
    const target = resolve(file, m[1]);
    if (target) deps.add(target);
  }
  graph.set(file, deps);
}

// Tarjan's strongly connected components: every component with more than one file is a cycle.
let index = 0;
const idx = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
function visit(v) {
  idx.set(v, index);
  low.set(v, index++);
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!graph.has(w)) continue;
    if (!idx.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const comp = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      comp.push(path.relative(root, w));
    } while (w !== v);
    if (comp.length > 1 || graph.get(v).has(v)) cycles.push(comp.sort());
  }
}
for (const v of graph.keys()) if (!idx.has(v)) visit(v);

if (cycles.length === 0) {
  console.log(`No import cycles among ${graph.size} files in ${dirs.join(', ')}.`);
} else {
  for (const c of cycles) console.log(`Cycle (${c.length} files):\n  ${c.join('\n  ')}`);
  process.exitCode = 1;
}
