#!/usr/bin/env node
// The web client's size budget (web/README.md): the JavaScript and CSS the first view loads, compressed as the gateway
// serves them (Brotli and gzip), against the budget of 80 kB of compressed JavaScript. Run after `vite build` in web/:
//   node bench/web-size.mjs
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'web', 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]);
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
let js = 0;
for (const asset of assets) {
  const body = readFileSync(join(dist, asset));
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  const gz = gzipSync(body, { level: 9 }).length;
  if (asset.endsWith('.js')) js += br;
  console.log(`${asset}: ${kb(body.length)} raw, ${kb(gz)} gzip, ${kb(br)} brotli`);
}
const unused = readdirSync(join(dist, 'assets')).filter((f) => !assets.includes(`assets/${f}`));
if (unused.length > 0) console.log(`not loaded by the first view: ${unused.join(', ')}`);
const budget = 80 * 1024;
console.log(`first-view JavaScript: ${kb(js)} brotli (budget ${kb(budget)}): ${js <= budget ? 'within' : 'OVER'}`);
process.exit(js <= budget ? 0 : 1);
