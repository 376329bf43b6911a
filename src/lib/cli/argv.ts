/**
 * The command line as the official CLI reads it, rewritten into the form
 * oclif and the fast path parse: global options may stand anywhere (`cdp`'s
 * main parser takes them from any position), `help` as the last word asks
 * for help, `--generate-cli-skeleton` takes an optional `input|output`, and
 * the official service name may stand for the topic
 * (`cloudprivatelinks` -> `privatelink`). Which words are global flags, and
 * whether they take a value, comes from the one list of them (flag-spec.ts).
 */
import { GLOBAL_FLAG_SPECS, type FlagSpecs } from './flag-spec.js';

/** How many words a global flag takes after it, by how it is written (`--output`, `-o`). */
function arityOf(specs: FlagSpecs): Readonly<Record<string, 0 | 1>> {
  const arity: Record<string, 0 | 1> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const takes = spec.type === 'boolean' ? 0 : 1;
    arity[`--${name}`] = takes;
    if (spec.char) arity[`-${spec.char}`] = takes;
  }
  return arity;
}

/** Global flags and whether they take a value: every option of the official CLI's cli.json, plus cdpctl's own. */
export const GLOBAL_FLAG_ARITY = arityOf(GLOBAL_FLAG_SPECS);

const SKELETON_FLAGS = new Set(['--generate-cli-skeleton', '--generate-skeleton']);
const SKELETON_KINDS = new Set(['input', 'output']);

const nameOf = (arg: string): string => (arg.startsWith('--') && arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg);

export interface NormalizeOptions {
  /** Maps an official service name to its topic (`cloudprivatelinks` -> `privatelink`). */
  readonly topicFor?: (name: string) => string | undefined;
}

/**
 * Rewrites a command line: command words first, then the command's own
 * flags in their order, then the global flags (the last of each wins, as
 * with argparse). Nothing after `--` is touched.
 */
export function normalizeArgv(argv: readonly string[], opts: NormalizeOptions = {}): string[] {
  const end = argv.indexOf('--');
  const head = end < 0 ? [...argv] : argv.slice(0, end);
  const tail = end < 0 ? [] : argv.slice(end);
  const globals = new Map<string, string[]>();
  const kept: string[] = [];
  for (let i = 0; i < head.length; i++) {
    const arg = head[i] ?? '';
    const name = nameOf(arg);
    const arity = GLOBAL_FLAG_ARITY[name];
    if (arity !== undefined && (arity === 1 || !arg.includes('='))) {
      const key = name === '-o' ? '--output' : name === '-y' ? '--yes' : name;
      const take = arg.includes('=') || arity === 0 ? 1 : 2;
      globals.delete(key);
      globals.set(key, head.slice(i, i + take));
      i += take - 1;
      continue;
    }
    if (SKELETON_FLAGS.has(name)) {
      const inline = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : undefined;
      const next = head[i + 1];
      let kind = inline ?? 'input';
      if (inline === undefined && next !== undefined && SKELETON_KINDS.has(next)) {
        kind = next;
        i++;
      }
      kept.push(`--generate-skeleton=${kind}`);
      continue;
    }
    kept.push(arg);
  }
  // `help` as the last word (`cdp iam list-users help`, `cdp iam help`), unless it is a flag's value.
  const last = kept.length - 1;
  if (last > 0 && kept[last] === 'help' && !(kept[last - 1] ?? '').startsWith('-')) kept[last] = '--help';
  // The official service name as the topic.
  const first = kept[0];
  if (first !== undefined && !first.startsWith('-') && opts.topicFor) {
    const topic = opts.topicFor(first);
    if (topic && topic !== first) kept[0] = topic;
  }
  return [...kept, ...[...globals.values()].flat(), ...tail];
}

/** The value given to a flag on a command line (`--output json`, `--output=json`, `-o json`), or undefined. */
export function flagValue(argv: readonly string[], long: string, char?: string): string | undefined {
  for (let i = argv.length - 1; i >= 0; i--) {
    const a = argv[i] ?? '';
    if (a.startsWith(`--${long}=`)) return a.slice(long.length + 3);
    if (a === `--${long}` || (char !== undefined && a === `-${char}`)) return argv[i + 1];
  }
  return undefined;
}

/** `--output json` anywhere on the line: errors, usage errors too, are then one JSON line. */
export const wantsJsonErrors = (argv: readonly string[]): boolean => flagValue(argv, 'output', 'o') === 'json';

/**
 * Drops global flags a hand-written command does not declare: `cdp` accepts
 * every global option with every command, so `cdpctl --no-paginate configure
 * list` runs as `configure list`.
 */
export function dropUndeclaredGlobals(argv: readonly string[], declared: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const name = nameOf(arg);
    const arity = GLOBAL_FLAG_ARITY[name];
    const flag = name.replace(/^-+/, '');
    const known = declared.has(flag) || (name === '-o' && declared.has('o')) || (name === '-y' && declared.has('y'));
    if (arity === undefined || known) {
      out.push(arg);
      continue;
    }
    if (arity === 1 && !arg.includes('=')) i++;
  }
  return out;
}
