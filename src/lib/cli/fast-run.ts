/**
 * The fast path for the commands scripts run most: an API operation with
 * well-formed flags runs without loading oclif (whose import and config
 * loading cost several times a node start), and help for the root, topics
 * and API commands is printed from the model (help.ts, which oclif's help
 * uses too). Anything this parser is not sure about — unknown or repeated
 * flags, positional arguments, values
 * that look like flags, values outside a flag's options — is left to oclif,
 * which then gives its usual answer or error. A command line it accepts
 * parses to exactly the flags oclif would give (a unit test compares them).
 */
import { loadService, topicFor, type Operation } from '../model/index.js';
import { normalizeArgv } from './argv.js';
import type { ContextDeps } from './context.js';
import { operationFlagSpecs, type FlagSpec } from './flag-spec.js';
// Imported statically, so that the bundle is one file for a call and for help (scripts/bundle.mjs).
import { helpContext, helpFor, writeHelp } from './help.js';
import { runToEnd } from './run-operation.js';

/** The command line as oclif and the fast path take it (see argv.ts), with the registry's service names. */
export const normalizeCommandLine = (argv: readonly string[]): string[] => normalizeArgv(argv, { topicFor });

export type FastFlags = Record<string, string | boolean | string[]>;

/** Flags as oclif would parse them, or undefined to leave the line to oclif. */
export function parseFlags(specs: Readonly<Record<string, FlagSpec>>, args: readonly string[]): FastFlags | undefined {
  const byName = new Map<string, [string, FlagSpec]>();
  const byChar = new Map<string, [string, FlagSpec]>();
  for (const [name, spec] of Object.entries(specs)) {
    byName.set(name, [name, spec]);
    for (const alias of spec.aliases ?? []) byName.set(alias, [name, spec]);
    if (spec.char) byChar.set(spec.char, [name, spec]);
  }
  const out: FastFlags = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    let hit: [string, FlagSpec] | undefined;
    let inline: string | undefined;
    let negated = false;
    if (arg.startsWith('--') && arg.length > 2) {
      const eq = arg.indexOf('=');
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq < 0 ? undefined : arg.slice(eq + 1);
      hit = byName.get(name);
      if (!hit && name.startsWith('no-')) {
        const positive = byName.get(name.slice(3));
        if (positive && positive[1].type === 'boolean' && positive[1].allowNo) {
          hit = positive;
          negated = true;
        }
      }
    } else if (/^-[A-Za-z]$/.test(arg)) {
      hit = byChar.get(arg.slice(1));
    }
    if (!hit) return undefined;
    const [name, spec] = hit;
    if (spec.type === 'boolean') {
      if (inline !== undefined || name in out) return undefined;
      out[name] = !negated;
      continue;
    }
    let value = inline;
    if (value === undefined) {
      value = args[i + 1];
      i++;
    }
    if (value === undefined || value === '' || value.startsWith('-')) return undefined;
    if (spec.options && !spec.options.includes(value)) return undefined;
    if (spec.multiple) {
      const list = (out[name] as string[] | undefined) ?? [];
      list.push(value);
      out[name] = list;
    } else {
      if (name in out) return undefined;
      out[name] = value;
    }
  }
  return out;
}

/** The operation a command line names, and the rest of the line. */
async function findOperation(argv: readonly string[]): Promise<{ op: Operation; rest: string[] } | undefined> {
  let n = 0;
  while (n < argv.length && !(argv[n] ?? '-').startsWith('-')) n++;
  const topic = argv[0];
  if (n < 2 || !topic || topicFor(topic) !== topic) return undefined;
  const svc = await loadService(topic);
  const op = svc.findByCommand(argv.slice(0, n).join(' '));
  return op ? { op, rest: argv.slice(n) } : undefined;
}

export interface FastRunOptions {
  /** The program name (`cdpctl`). */
  readonly bin?: string;
  /** The package root (where dist/help-index.json is); help is left to oclif without it. */
  readonly root?: string;
  /** What the run context is built on (in-process tests: a fake transport, buffers for terminals). */
  readonly deps?: Omit<ContextDeps, 'bin'>;
}

/** Asks for help: nothing at all, the help command, or --help/-h before any `--`. */
function asksForHelp(argv: readonly string[]): boolean {
  if (argv.length === 0 || argv[0] === 'help') return true;
  for (const a of argv) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}

/** Prints help from the model (help.ts, the renderer oclif's help uses too); undefined when oclif should answer. */
async function fastHelp(argv: readonly string[], bin: string, opts: FastRunOptions): Promise<0 | undefined> {
  const root = opts.root;
  // The help command's own flags (--nested-commands) are oclif's.
  if (!root || (argv[0] === 'help' && argv.some((a) => a.startsWith('-')))) return undefined;
  let text: string | undefined;
  try {
    text = await helpFor(argv, helpContext(bin, root, opts.deps?.env));
  } catch {
    // No index (a build without scripts/manifest.mjs): oclif answers.
    return undefined;
  }
  if (text === undefined) return undefined;
  const out = opts.deps?.streams?.out;
  if (out) out.write(text);
  else await writeHelp(text);
  return 0;
}

/**
 * Runs the command line when it is a plain API operation or a request for
 * help that the model answers, and resolves with its exit code; resolves
 * undefined (having printed nothing) when oclif should take it.
 */
export async function fastRun(argv: readonly string[], opts: FastRunOptions = {}): Promise<number | undefined> {
  const bin = opts.bin ?? 'cdpctl';
  if (asksForHelp(argv)) return fastHelp(argv, bin, opts);
  const found = await findOperation(argv);
  if (!found) {
    // A topic alone (`cdpctl iam users`) shows its help, as oclif does.
    return argv.every((a) => !a.startsWith('-')) ? fastHelp(argv, bin, opts) : undefined;
  }
  const flags = parseFlags(operationFlagSpecs(found.op), found.rest);
  if (!flags) return undefined;
  return runToEnd(found.op, flags, { ...opts.deps, bin });
}

/**
 * `cdpctl __complete <shell> "<line up to the cursor>"`, what the completion
 * script asks at each TAB (completion.ts): the candidates on stdout, one per
 * line. It never prints an error: a prompt is no place for one.
 */
export async function completeForShell(args: readonly string[], opts: FastRunOptions = {}): Promise<void> {
  const [shell = '', line = ''] = args;
  let out = '';
  try {
    const { completeLine } = await import('./completion.js');
    out = await completeLine(shell, line, helpContext(opts.bin ?? 'cdpctl', opts.root ?? '.').index(), process.env);
  } catch {
    out = '';
  }
  process.stdout.write(out);
}

/**
 * `cdpctl autocomplete bash|zsh` inside `$(...)`: the script alone, without
 * oclif, since a shell's rc file runs it at every shell start. Undefined
 * when this is not that line (a terminal gets the setup advice from oclif's
 * command).
 */
export async function completionScriptFor(argv: readonly string[], stdoutIsTTY: boolean): Promise<string | undefined> {
  const [command, shell, ...rest] = argv;
  if (command !== 'autocomplete' || rest.length > 0 || stdoutIsTTY) return undefined;
  const { completionScript, SHELLS } = await import('./completion.js');
  const known = SHELLS.find((s) => s === shell);
  return known ? completionScript(known, 'cdpctl') : undefined;
}
