#!/usr/bin/env node
// Developer tool, never run by the product: converts a wire-facts file
// (paths, shapes, paging keys) into the project's own compact model format,
// src/lib/model/services/<topic>/wire.ts. The hand-written CLI decorations
// (command ids, summaries, examples, waiters, rules) live beside it in
// index.ts and are not touched. Usage: node scripts/import-facts.mjs FACTS.json TOPIC
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [factsPath, topic] = process.argv.slice(2);
if (!factsPath || !topic) {
  console.error('usage: import-facts.mjs FACTS.json TOPIC');
  process.exit(2);
}
const facts = JSON.parse(readFileSync(factsPath, 'utf8'));
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function typeOf(p) {
  if (p.ref) return p.ref;
  switch (p.type) {
    case 'string':
      return p.format === 'date-time' ? 'datetime' : p.format === 'byte' ? 'bytes' : 'string';
    case 'integer':
      return p.format === 'int64' ? 'int64' : 'int32';
    case 'number':
      return 'double';
    case 'boolean':
      return 'boolean';
    case 'array':
      return `[${typeOf(p.items)}${p.items.enum ? ` enum=${p.items.enum.join('|')}` : ''}]`;
    case 'object':
      return p.additionalProperties ? `{${typeOf(p.additionalProperties)}}` : 'object';
    default:
      throw new Error(`unknown type ${JSON.stringify(p)}`);
  }
}

function spec(name, p, required) {
  let s = typeOf(p) + (required ? '!' : '');
  if (p.enum) s += ` enum=${p.enum.join('|')}`;
  if (p.minimum !== undefined) s += ` min=${p.minimum}`;
  if (p.maximum !== undefined) s += ` max=${p.maximum}`;
  if (p.minLength !== undefined) s += ` minLen=${p.minLength}`;
  if (p.maxLength !== undefined) s += ` maxLen=${p.maxLength}`;
  if (p.default !== undefined) s += ` default=${p.default}`;
  // Passwords are secrets whether or not the facts mark them (some do not).
  if (p.sensitive || /(^p|P)assword$/.test(name)) s += ' secret';
  if (p.deprecated) s += ' deprecated';
  if (p.uniqueItems) s += ' unique';
  if (p.readOnly) s += ' readonly';
  return s;
}

const q = (s) => (/^[A-Za-z_$][\w$]*$/.test(s) ? s : JSON.stringify(s));
const lines = [];
lines.push(`// Wire shapes and operation facts of the ${facts.service} service, in the`);
lines.push(`// project's model format (see ../../shapes.ts). Regenerate with`);
lines.push(`// scripts/import-facts.mjs; CLI decorations live in ./index.ts.`);
lines.push(`import type { Shapes, WireOperations } from '../../wire.js';`);
lines.push('');
lines.push('export const shapes: Shapes = {');
for (const [name, def] of Object.entries(facts.definitions)) {
  if (def.enum) {
    lines.push(`  ${q(name)}: 'enum ${def.enum.join(' ')}',`);
    continue;
  }
  const req = new Set(def.required ?? []);
  const props = Object.entries(def.properties ?? {});
  if (props.length === 0) {
    lines.push(`  ${q(name)}: {},`);
    continue;
  }
  lines.push(`  ${q(name)}: {`);
  for (const [pn, p] of props) lines.push(`    ${q(pn)}: ${JSON.stringify(spec(pn, p, req.has(pn)))},`);
  lines.push('  },');
}
lines.push('};');
lines.push('');
lines.push('export const operations: WireOperations = {');
for (const [name, op] of Object.entries(facts.operations)) {
  const cap = name[0].toUpperCase() + name.slice(1);
  const parts = [];
  if (op.request !== `${cap}Request`) parts.push(`input: '${op.request}'`);
  if (op.response !== `${cap}Response`) parts.push(`output: '${op.response}'`);
  parts.push(`path: '${op.path}'`);
  // Facts leave `mutating` out or null for some operations; a read is
  // recognisable by its verb, anything else is treated as mutating so it is
  // never retried after delivery.
  const mut = op.mutating ?? !/^(get|list|describe|validate|download)/.test(name);
  parts.push(`mutating: ${mut}`);
  if (op.pagingDefaultMaxItems) {
    const rq = facts.definitions[op.request].properties;
    const rs = facts.definitions[op.response].properties;
    const key = (props, k) => Object.entries(props).find(([, v]) => v[k])?.[0];
    parts.push(
      `paging: { result: '${key(rs, 'paging-result')}', inputToken: '${key(rq, 'paging-input-token')}', outputToken: '${key(rs, 'paging-output-token')}', pageSize: '${key(rq, 'paging-page-size')}', defaultMaxItems: ${op.pagingDefaultMaxItems} }`,
    );
  }
  if (op.deprecated) parts.push('deprecated: true');
  if (op.beta) parts.push('beta: true');
  lines.push(`  ${name}: { ${parts.join(', ')} },`);
}
lines.push('};');
const out = join(root, 'src/lib/model/services', topic, 'wire.ts');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, lines.join('\n') + '\n');
console.log(`wrote ${out}: ${Object.keys(facts.operations).length} operations, ${Object.keys(facts.definitions).length} shapes`);
