#!/usr/bin/env node
// Developer tool, never run by the product: prints a first draft of a
// service's resource facts (src/lib/model/services/<topic>/resources.ts, the
// format in src/lib/model/resources.ts) from what the built emulator does
// today, for a person to review against the model's enums and the API's
// descriptions before it replaces the service's hand-written lifecycles.
//
//   npm run build && node scripts/scaffold-resources.mjs opdb
//
// What it reads: a service already on the engine, each resource's lifecycle
// as the engine has it (declared or from facts); any other service, every
// exported `Lifecycle` constant of its folder (an object whose actions have
// `phases`), one resource each, named after the constant. The emulated
// minutes of each action are printed as a comment: they are the emulator's,
// for the resource's `minutes` in its declaration.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const topic = process.argv[2];
if (!topic) {
  console.error('usage: node scripts/scaffold-resources.mjs <topic>');
  process.exit(2);
}
const imp = (p) => import(pathToFileURL(join(root, 'dist', 'lib', p)).href);
const { loadService } = await imp('model/index.js');
const svc = await loadService(topic);

/** Lifecycles by resource name, with the record shape when the engine knows it. */
const found = [];
const mod = (await imp(`emulator/services/${svc.topic}/index.js`)).default;
if (mod.engine) {
  const { Engine } = await imp('emulator/engine/index.js');
  const { fromSpec } = await imp('emulator/engine/compile.js');
  const engine = new Engine(svc, fromSpec(mod.engine));
  for (const r of engine.model.resources.values())
    found.push({ name: r.key, shape: r.shape, crnType: r.crnType, status: r.fields.status, lifecycle: r.lifecycle });
} else {
  const dir = join(root, 'dist', 'lib', 'emulator', 'services', svc.topic);
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.js'))) {
    const m = await import(pathToFileURL(join(dir, f)).href);
    for (const [name, v] of Object.entries(m)) {
      const actions = v && typeof v === 'object' && !Array.isArray(v) ? Object.values(v) : [];
      if (actions.length > 0 && actions.every((a) => a && typeof a === 'object' && Array.isArray(a.phases)))
        found.push({ name: name.toLowerCase(), shape: '<the shape describe shows it in>', lifecycle: v, from: f });
    }
  }
}

const q = (s) => `'${String(s).replace(/'/g, "\\'")}'`;
const list = (xs) => `[${xs.map(q).join(', ')}]`;
const out = [];
out.push(`// src/lib/model/services/${svc.topic}/resources.ts: a DRAFT from scaffold-resources.mjs; review every state.`);
out.push(`import type { ServiceResources } from '../../resources.js';`);
out.push('');
out.push(`/** What the API says of ${svc.name}'s resources: states, deletion ends (read by the emulator; checked against the wire). */`);
out.push('export const resources = {');
out.push('  resources: {');
for (const r of found) {
  out.push(`    ${r.name}: {${r.from ? ` // the ${r.from} lifecycle` : ''}`);
  out.push(`      shape: ${q(r.shape)},`);
  if (r.crnType) out.push(`      crnType: ${q(r.crnType)},`);
  const minutes = [];
  if (r.lifecycle) {
    out.push('      lifecycle: {');
    for (const [action, spec] of Object.entries(r.lifecycle)) {
      const parts = [`through: ${list(spec.phases.map(([s]) => s))}`];
      if (spec.success) parts.push(`success: ${q(spec.success)}`);
      if (spec.failure) parts.push(`failure: ${q(spec.failure)}`);
      if (spec.from) parts.push(`from: ${list(spec.from)}`);
      if (spec.operation) parts.push(`operation: ${q(spec.operation)}`);
      out.push(`        ${action}: { ${parts.join(', ')} },`);
      minutes.push(`${action}: [${spec.phases.map(([, m]) => m).join(', ')}]`);
    }
    out.push('      },');
    const del = r.lifecycle.delete;
    if (del)
      out.push(del.removes ? `      deleted: { ends: 'gone' },` : `      deleted: { ends: 'kept', status: ${q(del.success ?? '')} },`);
  }
  out.push('    },');
  if (minutes.length > 0) out.push(`    // emulated minutes (the declaration's \`minutes\`): { ${minutes.join(', ')} }`);
}
out.push('  },');
out.push('} as const satisfies ServiceResources;');
console.log(out.join('\n'));
