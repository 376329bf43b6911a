/**
 * Seed files: a YAML or JSON list of operations an emulator applies when it
 * starts (`cdpctl emulator start --seed FILE`), as the account admin, each
 * checked against the model like any request:
 *
 *   - iam createGroup: {groupName: data-eng}
 *   - iam createMachineUser: {machineUserName: etl}
 *   - datalake createAWSDatalake: {datalakeName: lake, environmentName: sales-env, ...}
 *
 * A service is named by its wire name or CLI topic, an operation by its wire
 * name or its cdp-style kebab name. The whole file is applied in one
 * transaction: an error in any item (naming its line) leaves nothing of it
 * behind. A file applied once to a data directory is not applied again.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as YamlModule from 'yaml';
import type { Doc } from './types.js';

let yamlModule: typeof YamlModule | undefined;
/**
 * The yaml package, loaded when a seed file is first parsed: most starts
 * have no seed, and loading it costs ~35 ms of the start-up every CI job
 * waits for (in the emulator process and in `emulator start` itself).
 */
const yaml = (): typeof YamlModule => (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof YamlModule);

export class SeedError extends Error {}

export interface SeedStep {
  /** 1-based line of the item in the file. */
  readonly line: number;
  readonly service: string;
  readonly operation: string;
  readonly request: Doc;
}

export interface SeedFile {
  readonly name: string;
  /** sha256 of the text: a file applied once is not applied again. */
  readonly digest: string;
  readonly steps: readonly SeedStep[];
}

const EXAMPLE = '- iam createGroup: {groupName: data-eng}';

/** Parses a seed file's text; errors name the file and line. */
export function parseSeed(text: string, name: string): SeedFile {
  const { isMap, isScalar, isSeq, LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const lineOf = (node: YamlModule.Node | null | undefined): number => (node?.range ? lines.linePos(node.range[0]).line : 1);
  const first = doc.errors[0];
  if (first) {
    const line = lines.linePos(first.pos[0]).line;
    throw new SeedError(`${name} line ${line}: ${first.message.split('\n')[0] ?? 'not valid YAML or JSON'}`);
  }
  const root = doc.contents;
  if (root === null) return { name, digest: digest(text), steps: [] };
  if (!isSeq(root)) throw new SeedError(`${name} line ${lineOf(root)}: a seed file is a list of operations, e.g. ${EXAMPLE}`);
  const steps: SeedStep[] = root.items.map((item) => {
    const line = lineOf(item as YamlModule.Node);
    if (!isMap(item) || item.items.length !== 1)
      throw new SeedError(`${name} line ${line}: each item is one "<service> <operation>: {request}" entry, e.g. ${EXAMPLE}`);
    const pair = item.items[0];
    const key = isScalar(pair?.key) ? String(pair.key.value) : '';
    const parts = key.trim().split(/\s+/);
    if (parts.length !== 2 || !parts[0] || !parts[1])
      throw new SeedError(`${name} line ${line}: "${key.slice(0, 100)}" is not "<service> <operation>", e.g. ${EXAMPLE}`);
    const request: unknown = (pair?.value as YamlModule.Node | null | undefined)?.toJSON() ?? {};
    if (typeof request !== 'object' || Array.isArray(request))
      throw new SeedError(`${name} line ${line}: the request of ${key} must be an object of its fields, e.g. {groupName: data-eng}`);
    return { line, service: parts[0], operation: parts[1], request: request as Doc };
  });
  return { name, digest: digest(text), steps };
}

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The meta key that records a seed file as applied. */
export const appliedKey = (file: SeedFile): string => `seed.applied:${file.digest}`;
