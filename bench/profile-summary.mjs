#!/usr/bin/env node
// Summarises a .cpuprofile (node --cpu-prof) by package/file: self time in ms.
// Usage: node bench/profile-summary.mjs <file.cpuprofile> [--files]
import { readFileSync } from 'node:fs';

const [file, mode] = process.argv.slice(2);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) {
  const n = byId.get(prof.samples[i]);
  self.set(n.id, (self.get(n.id) ?? 0) + (dt[i] ?? 0) / 1000);
}
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
// Time inside node's internals (module loading, compiling) is charged to the
// nearest caller that is ours or a package's, so imports show where they cost.
function owner(id) {
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const url = byId.get(cur).callFrame.url;
    if (url && !url.startsWith('node:')) return byId.get(cur);
  }
  return byId.get(id);
}
const groups = new Map();
for (const [id, ms] of self) {
  const n = owner(id);
  const url = n.callFrame.url || `(${n.callFrame.functionName || 'native'})`;
  let key = url;
  if (mode !== '--files') {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    key = m ? m[1] : url.replace(/^file:\/\/.*?\/(dist|bin)\//, '$1/').replace(/^node:.*/, 'node:internal');
  }
  groups.set(key, (groups.get(key) ?? 0) + ms);
}
const total = [...groups.values()].reduce((a, b) => a + b, 0);
console.log(`total sampled ${total.toFixed(1)} ms (wall ${((prof.endTime - prof.startTime) / 1000).toFixed(1)} ms)`);
for (const [k, ms] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${ms.toFixed(1).padStart(8)}  ${k}`);
