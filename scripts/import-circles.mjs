#!/usr/bin/env node
// Import circles among a folder's product files (relative imports, `import type` included; *.spec.ts left out).
// Usage: node scripts/import-circles.mjs <dir> [--values-only]. Prints each circle (strongly connected component).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? 'services/messaging/src');
const valuesOnly = process.argv.includes('--values-only');
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'generated' && name !== 'node_modules') walk(path);
    } else if (/\.tsx?$/.test(name) && !/\.(spec|test)\.tsx?$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
})(root);
const known = new Set(files);
const edges = new Map();
const importRe = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/g;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const out = new Set();
  for (const m of text.matchAll(importRe)) {
    if (valuesOnly && m[2]) continue;
    const target = resolve(dirname(file), m[3]).replace(/\.js$/, '.ts');
    const candidates = [target, target.replace(/\.ts$/, '.tsx'), join(target.replace(/\.ts$/, ''), 'index.ts')];
    const hit = candidates.find((c) => known.has(c));
    if (hit) out.add(hit);
  }
  edges.set(file, [...out]);
}
// Tarjan's strongly connected components.
let index = 0;
const stack = [],
  on = new Set(),
  idx = new Map(),
  low = new Map(),
  sccs = [];
function visit(v) {
  idx.set(v, index);
  low.set(v, index);
  index++;
  stack.push(v);
  on.add(v);
  for (const w of edges.get(v)) {
    if (!idx.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const scc = [];
    let w;
    do {
      w = stack.pop();
      on.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1 || edges.get(v).includes(v)) sccs.push(scc);
  }
}
for (const f of files) if (!idx.has(f)) visit(f);
console.log(`${files.length} files, ${sccs.length} circle(s)${valuesOnly ? ' (value imports only)' : ''}`);
for (const scc of sccs)
  console.log(
    `- ${scc.length} files: ${scc
      .map((f) => relative(root, f))
      .sort()
      .join(', ')}`,
  );
process.exitCode = 0;
