/**
 * The help of cdpctl, rendered from the model: the root, every topic (a
 * service or a resource under it) and every API command. This is the one
 * renderer: the fast path (fast-run.ts) prints it without loading oclif, and
 * oclif's help (oclif-help.ts) delegates to it, so both print the same bytes.
 * cdpctl's own commands (configure, emulator, login, ...) keep oclif's help.
 *
 * Listings read a compact index written at build time (scripts/manifest.mjs
 * writes dist/help-index.json), so the root and topic help load no service
 * model; a command's help loads only its own service.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadService, topicFor, type Operation, type Service } from '../model/index.js';
import { kebab } from '../model/names.js';
import type { Field } from '../model/shapes.js';
import {
  GLOBAL_FLAG_SPECS,
  INLINE_OPTIONS_MAX,
  fieldDescription,
  flagFields,
  operationFlagSpecs,
  type FlagSpec,
  type FlagSpecs,
} from './flag-spec.js';
import { helpWidth, orList, section, sentence, twoColumns, wrap, wrapCommand, wrapSynopsis } from './help-text.js';
import { writeToDescriptor } from './io.js';

/** What the listings need, written at build time from the model and the oclif commands. */
export interface HelpIndex {
  /** package.json version. */
  readonly version: string;
  /** package.json description: the first lines of the root help. */
  readonly description: string;
  /** Topic id (space separated) -> one line; only topics with a visible command under them. */
  readonly topics: Readonly<Record<string, string>>;
  /** Visible command id -> summary: API commands and cdpctl's own. */
  readonly commands: Readonly<Record<string, string>>;
  /** Ids of cdpctl's own commands (not from the model); their help is oclif's. */
  readonly own: readonly string[];
  /** Their flags, for completion: a flag's fixed values (empty: any value), or null for a switch. */
  readonly ownFlags?: Readonly<Record<string, Readonly<Record<string, readonly string[] | null>>>>;
}

export interface HelpContext {
  /** The program name (`cdpctl`). */
  readonly bin: string;
  /** Line width (help-text.ts helpWidth). */
  readonly width: number;
  /** The listings' index, read when first needed. */
  readonly index: () => HelpIndex;
}

/** Where the build writes the index, relative to the package root. */
export const HELP_INDEX_PATH = 'dist/help-index.json';

/** Where the build writes each service's help pages (helpBook), `<topic>.json`, relative to the package root. */
export const HELP_PAGES_DIR = 'dist/help';

/** The width written help pages are laid out for: what help gets on a pipe (helpWidth), where scripts and tools read it. */
export const HELP_PAGE_WIDTH = 80;

/**
 * A service's help pages, written at build time (dist/help/<topic>.json)
 * for bin/run.js to print without loading the fast path: each command's,
 * under its words after the topic and under its cdp-style alias, and each
 * topic's ('' for the service itself), exactly as helpFor renders them at
 * `ctx`'s width. The root help is not among them: it names node's version.
 */
export async function helpBook(service: Service, ctx: HelpContext): Promise<{ pages: string[]; index: Record<string, number> }> {
  const pages: string[] = [];
  const index: Record<string, number> = {};
  const add = async (keys: readonly string[]): Promise<void> => {
    const text = await helpFor(keys[0] ? [service.topic, ...keys[0].split(' ')] : [service.topic], ctx);
    if (text === undefined) return;
    pages.push(text);
    for (const key of keys) index[key] = pages.length - 1;
  };
  const rest = (id: string): string => id.slice(service.topic.length + 1);
  for (const op of service.operations()) await add([rest(op.commandId), rest(op.aliasId)]);
  for (const id of Object.keys(ctx.index().topics)) {
    if (id === service.topic) await add(['']);
    else if (id.startsWith(`${service.topic} `) && !Object.hasOwn(index, rest(id))) await add([rest(id)]);
  }
  return { pages, index };
}

/** `cdpctl/0.2.0 linux-x64 node-v20.20.2`, as oclif's --version says it. */
export const versionLine = (bin: string, version: string): string =>
  `${bin}/${version} ${process.platform}-${process.arch} node-${process.version}`;

// ---------------------------------------------------------------- what to show

/** The command words of a help request: the leading words, without `help` (the help command) or help flags. */
export function helpWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (const a of argv) {
    if (a.startsWith('-')) break;
    words.push(a);
  }
  if (words[0] === 'help') words.shift();
  return words;
}

/**
 * The help text for a command line (`iam users create --help`, `help iam`,
 * nothing at all), or undefined when it is oclif's to give: one of cdpctl's
 * own commands, or words that name nothing.
 */
export async function helpFor(argv: readonly string[], ctx: HelpContext): Promise<string | undefined> {
  const words = helpWords(argv);
  if (words.length === 0) return renderRootHelp(ctx);
  const topic = topicFor(words[0] ?? '');
  const service = topic ? await loadService(topic) : undefined;
  if (topic && service) {
    words[0] = topic;
    const op = service.findByCommand(words.join(' '));
    if (op) return renderOperationHelp(op, ctx);
  }
  const id = words.join(' ');
  const index = ctx.index();
  if (index.own.includes(id)) return undefined;
  return Object.hasOwn(index.topics, id) ? renderTopicHelp(id, ctx, service) : undefined;
}

// ---------------------------------------------------------------- root and topics

const LIST_MAX_LEFT = 36;

/** Plain code-unit order: ids and flag names are ASCII, and localeCompare's first use costs milliseconds (ICU). */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Direct children of a topic (or of the root, for ''): sub-topics and commands, sorted. */
function children(index: HelpIndex, parent: string): { topics: Array<[string, string]>; commands: Array<[string, string]> } {
  const depth = parent ? parent.split(' ').length + 1 : 1;
  const under = (id: string): boolean => (parent ? id.startsWith(`${parent} `) : true) && id.split(' ').length === depth;
  const sorted = (rec: Readonly<Record<string, string>>): Array<[string, string]> =>
    Object.entries(rec)
      .filter(([id]) => under(id))
      .sort(([a], [b]) => byText(a, b));
  return { topics: sorted(index.topics), commands: sorted(index.commands) };
}

export function renderRootHelp(ctx: HelpContext): string {
  const { width, bin } = ctx;
  const index = ctx.index();
  const services = Object.entries(index.topics)
    .filter(([id]) => !id.includes(' ') && topicFor(id) === id)
    .sort(([a], [b]) => byText(a, b));
  const own = index.own
    .filter((id) => Object.hasOwn(index.commands, id))
    .sort((a, b) => byText(a, b))
    .map((id): [string, string] => [id, index.commands[id] ?? '']);
  const parts = [
    wrap(sentence(index.description), width),
    section('USAGE', [`  $ ${bin} <service> [<resource>] <command> [flags]`, `  $ ${bin} <command> [flags]`].join('\n')),
    section('SERVICES', twoColumns(services, width, { maxLeft: LIST_MAX_LEFT })),
    section('COMMANDS', twoColumns(own, width, { maxLeft: LIST_MAX_LEFT })),
    section('GLOBAL FLAGS', flagList(GLOBAL_FLAG_SPECS, width)),
    section(
      'LEARN MORE',
      wrap(
        [
          `\`${bin} <service> --help\` lists the commands of a service; \`${bin} <command> --help\` (or \`help\` as the last word) shows a command's flags.`,
          `Global flags may stand anywhere on the line. Commands also answer to the official cdp CLI's names: \`${bin} iam list-users\` runs \`${bin} iam users list\`.`,
        ].join('\n'),
        width,
        2,
      ),
    ),
    section('VERSION', `  ${versionLine(bin, index.version)}`),
  ];
  return parts.join('\n\n') + '\n';
}

/** A topic's help; a service's topic names one of its cdp-style aliases when the service is given. */
export function renderTopicHelp(topic: string, ctx: HelpContext, service?: Service): string {
  const { width, bin } = ctx;
  const index = ctx.index();
  const { topics, commands } = children(index, topic);
  const parts = [wrap(sentence(index.topics[topic] ?? ''), width), section('USAGE', `  $ ${bin} ${topic} COMMAND [flags]`)];
  if (topics.length) parts.push(section('TOPICS', twoColumns(topics, width, { maxLeft: LIST_MAX_LEFT })));
  if (commands.length) parts.push(section('COMMANDS', twoColumns(commands, width, { maxLeft: LIST_MAX_LEFT })));
  if (topicFor(topic.split(' ')[0] ?? '')) {
    const more = [
      topics.length ? `\`${bin} ${topic} <topic> --help\` lists the commands of a topic; ` : '',
      `\`${bin} ${topic} <command> --help\` shows a command's flags.`,
    ];
    const example = service?.topic === topic ? firstVisible(service) : undefined;
    if (example)
      more.push(
        ` Commands also answer to the official cdp CLI's names: \`${bin} ${example.aliasId}\` runs \`${bin} ${example.commandId}\`` +
          (service && service.name !== service.topic ? `, and \`${bin} ${service.name} ...\` is \`${bin} ${service.topic} ...\`.` : '.'),
      );
    parts.push(section('LEARN MORE', wrap(more.join(''), width, 2)));
  }
  return parts.join('\n\n') + '\n';
}

/** The first listed command of a service, for an example. */
const firstVisible = (service: Service): Operation | undefined =>
  service
    .operations()
    .filter((op) => !op.cli.hidden && !op.wire.deprecated)
    .sort((a, b) => byText(a.commandId, b.commandId))[0];

// ---------------------------------------------------------------- flags

/** `<A|B>` for a short enum, else the spec's placeholder; `...` after a repeatable flag. */
function valueOf(spec: Pick<FlagSpec, 'type' | 'options' | 'helpValue' | 'multiple'>): string {
  if (spec.type === 'boolean') return '';
  const options = spec.options?.join('|');
  const value = spec.helpValue ?? (options && options.length <= INLINE_OPTIONS_MAX ? `<${options}>` : options ? '<option>' : '<value>');
  return spec.multiple ? `${value}...` : value;
}

/** `--name <value>`, as help and the reference show a flag. */
export function flagUsage(name: string, spec: Pick<FlagSpec, 'type' | 'options' | 'helpValue' | 'multiple'>): string {
  const value = valueOf(spec);
  return `--${name}${value ? ` ${value}` : ''}`;
}

function flagLabel(name: string, spec: FlagSpec, charColumn: boolean): string {
  const long = flagUsage(name, spec);
  if (spec.char) return `-${spec.char}, ${long}`;
  return charColumn ? `    ${long}` : long;
}

/** A flag list with descriptions; `-x, ` short names get a column of their own. */
function flagList(specs: Readonly<Record<string, FlagSpec>>, width: number, left?: number): string {
  const entries = Object.entries(specs).filter(([, s]) => !s.hidden);
  const charColumn = entries.some(([, s]) => s.char);
  const rows = entries
    .sort(([a], [b]) => byText(a, b))
    .map(([name, spec]): [string, string] => [flagLabel(name, spec, charColumn), describeFlag(spec)]);
  return twoColumns(rows, width, { ...(left !== undefined ? { left } : {}), maxLeft: LIST_MAX_LEFT });
}

function describeFlag(spec: FlagSpec): string {
  const options = spec.options?.join('|');
  const long = options && options.length > INLINE_OPTIONS_MAX && !/One of:/.test(spec.description);
  return long ? `${spec.description} One of: ${spec.options?.join(', ')}.` : spec.description;
}

// ---------------------------------------------------------------- an API command

/** Fields a command cannot go without: required by the shape, or the only field of an any-of rule. */
function requiredFields(op: Operation): Set<string> {
  const out = new Set(
    flagFields(op)
      .filter((f) => f.required)
      .map((f) => f.name),
  );
  for (const r of op.cli.rules ?? []) if (r.kind === 'anyOf' && r.fields.length === 1 && r.fields[0]) out.add(r.fields[0]);
  return out;
}

/** The rules between flags, as sentences (`Give exactly one of --a or --b.`). */
export function ruleSentences(op: Operation): string[] {
  const flag = (f: string): string => `--${kebab(f)}`;
  const out: string[] = [];
  for (const r of op.cli.rules ?? []) {
    if (r.kind === 'exclusive') out.push(`Give at most one of ${orList(r.fields.map(flag))}.`);
    else if (r.kind === 'oneOf') out.push(`Give exactly one of ${orList(r.fields.map(flag))}.`);
    else if (r.kind === 'anyOf' && r.fields.length > 1) out.push(`Give at least one of ${orList(r.fields.map(flag))}.`);
    else if (r.kind === 'requires') out.push(`${flag(r.field)} needs ${flag(r.needs)}.`);
  }
  return out;
}

/** How a value of each kind is written, for the kinds a command's flags take. */
function valueNotes(op: Operation, specs: Readonly<Record<string, FlagSpec>>): string[] {
  const own = Object.values(specs).filter((s) => !s.helpGroup);
  const has = (pred: (s: FlagSpec) => boolean): boolean => own.some(pred);
  const notes: string[] = [];
  if (has((s) => Boolean(s.multiple)))
    notes.push(
      'A value followed by ... takes several values: give them as separate words, repeat the flag, or give a JSON array. A comma is part of a value, as in cdp.',
    );
  if (has((s) => Boolean(s.helpValue?.startsWith('<structure>'))))
    notes.push('A <structure> is JSON ({"key": "value"}) or key=value,key2=value2.');
  if (has((s) => s.helpValue === '<key=value,...>')) notes.push('A <key=value,...> map may also be a JSON object.');
  if (has((s) => s.helpValue === '<base64>')) notes.push('A <base64> value may be fileb://path: the bytes of that file.');
  if (has((s) => s.type === 'boolean' && Boolean(s.allowNo))) notes.push('--no-<flag> sends false for a switch.');
  if (flagFields(op).length) notes.push('Any value may be file://path: the text of that file.');
  return notes;
}

/**
 * The sentence about --wait, true to the waiter: which call it polls and
 * what ends the wait (a success state, or the resource being gone).
 */
export function waitSentence(op: Operation, code: (s: string) => string = (s) => s): string | undefined {
  const w = op.cli.wait;
  if (!w) return undefined;
  const constant = /^'([^']*)'$/.exec(w.state.trim())?.[1];
  const stateCanEnd = constant === undefined || w.success.includes(constant);
  const states = orList(w.success.map(code));
  const gone = 'it answers NOT_FOUND (the resource is gone)';
  const until = w.goneIsSuccess ? (stateCanEnd ? `the state is ${states}, or until ${gone}` : gone) : `the state is ${states}`;
  const failure = w.failure?.length ? ` (exit 5 on ${orList(w.failure.map(code))})` : '';
  // The poll may be another service's (dataflow waits read df).
  return `With --wait, polls ${code(w.service ? `${w.service} ${w.poll}` : w.poll)} until ${until}${failure}.`;
}

/** Facts about a command beyond its flags, as sentences: paging, waiting, confirmation, uploads, stability. */
export function operationNotes(op: Operation, bin: string, code: (s: string) => string = (s) => s): string[] {
  const notes: string[] = [];
  if (op.wire.deprecated)
    notes.push(`Deprecated${op.cli.replacement ? `: use ${code(`${bin} ${op.service.topic} ${op.cli.replacement}`)} instead` : ''}.`);
  if (op.wire.beta) notes.push('Beta: may change without notice.');
  if (op.paging)
    notes.push(
      `Pages automatically, ${op.paging.defaultMaxItems} items per request: every page is fetched and the ${code(op.paging.result)} lists are merged. ` +
        '--max-items stops early and prints a nextToken for --starting-token; --no-paginate makes a single call.',
    );
  const wait = waitSentence(op, code);
  if (wait) notes.push(wait);
  if (op.cli.destructive) notes.push('Asks for confirmation on a terminal unless --yes is given.');
  if (op.cli.upload) notes.push(`Uploads the file named by --${kebab(op.cli.upload.fileField)} as the request body.`);
  return notes;
}

/** The official CLI's command line for an operation: `cdp iam create-user`. */
export const cdpEquivalent = (op: Operation): string => `cdp ${op.service.name} ${kebab(op.name)}`;

/** The model's examples as full command lines. */
export const exampleLines = (op: Operation, bin: string): string[] =>
  (op.cli.examples?.length ? op.cli.examples : ['']).map((e) => `${bin} ${op.commandId} ${e}`.trimEnd());

export function renderOperationHelp(op: Operation, ctx: HelpContext): string {
  const { width, bin } = ctx;
  const specs = operationFlagSpecs(op);
  const required = requiredFields(op);
  const fields = new Map(flagFields(op).map((f) => [kebab(f.name), f]));
  const isRequired = (name: string): boolean => required.has(fields.get(name)?.name ?? '');

  // Flags by group; the command's own first, required ones at the top.
  const groups: Array<[string, Record<string, FlagSpec>]> = [
    ['FLAGS', {}],
    ['INPUT FLAGS', {}],
    ['PAGING FLAGS', {}],
    ['WAIT FLAGS', {}],
  ];
  const groupOf: Readonly<Record<string, number>> = { INPUT: 1, PAGING: 2, WAIT: 3 };
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.helpGroup === 'GLOBAL' || spec.hidden) continue;
    const g = groups[spec.helpGroup ? (groupOf[spec.helpGroup] ?? 0) : 0];
    if (g) g[1][name] = spec;
  }
  const own = groups[0]?.[1] ?? {};
  const rows = (group: Record<string, FlagSpec>): Array<[string, string]> =>
    Object.entries(group)
      .sort(([a], [b]) => Number(isRequired(b)) - Number(isRequired(a)) || byText(a, b))
      .map(([name, spec]) => [flagLabel(name, spec, false), ownFlagText(op, name, spec, fields, isRequired(name))]);
  const allRows = groups.map(([, g]) => rows(g));
  const left = Math.min(LIST_MAX_LEFT, Math.max(0, ...allRows.flat().map(([l]) => (l.length <= LIST_MAX_LEFT ? l.length : 0))));

  const usageFlags = Object.entries(own)
    .filter(([name]) => isRequired(name))
    .sort(([a], [b]) => byText(a, b))
    .map(([name, spec]) => flagLabel(name, spec, false));
  const parts: string[] = [wrap(sentence(op.cli.summary), width)];
  if (op.wire.deprecated) parts.push(wrap(operationNotes(op, bin)[0] ?? '', width));
  parts.push(section('USAGE', wrapSynopsis(['$', bin, ...op.commandId.split(' '), ...usageFlags, '[flags]'], width)));
  groups.forEach(([title], i) => {
    const r = allRows[i] ?? [];
    if (!r.length) return;
    const rules = i === 0 ? ruleSentences(op) : [];
    parts.push(section(title, twoColumns(r, width, { left }) + (rules.length ? `\n\n${wrap(rules.join(' '), width, 2)}` : '')));
  });
  const values = valueNotes(op, specs);
  if (values.length) parts.push(section('VALUES', wrap(values.join('\n'), width, 2)));
  const globals = Object.entries(GLOBAL_FLAG_SPECS as FlagSpecs)
    .filter(([, s]) => !s.hidden)
    .map(([name, s]) => (s.char ? `-${s.char}/--${name}` : `--${name}`));
  parts.push(section('GLOBAL FLAGS', wrap(`${globals.join(', ')}. See \`${bin} --help\` for what they do.`, width, 2)));

  const notes = operationNotes(op, bin).filter((n) => !n.startsWith('Deprecated'));
  const about = [
    `API: ${op.service.name} ${op.name} (${op.composed ? 'run on the client, as the official CLI does' : `POST ${op.path}`})`,
    `cdp equivalent: ${cdpEquivalent(op)}; ${bin} ${op.aliasId} works too.`,
  ];
  const paragraphs = [op.cli.description ? sentence(op.cli.description) : '', ...notes].filter(Boolean);
  parts.push(
    section('DESCRIPTION', [...paragraphs.map((p) => wrap(p, width, 2)), about.map((l) => wrap(l, width, 2)).join('\n')].join('\n\n')),
  );
  parts.push(
    section(
      'EXAMPLES',
      exampleLines(op, bin)
        .map((e) => wrapCommand(`$ ${e}`, width))
        .join('\n\n'),
    ),
  );
  return parts.join('\n\n') + '\n';
}

/** A flag of the command's own: our words and the shape's notes, `(required)` first; shared flags keep their text. */
function ownFlagText(op: Operation, name: string, spec: FlagSpec, fields: ReadonlyMap<string, Field>, required: boolean): string {
  const field = fields.get(name);
  return field && !spec.helpGroup ? fieldDescription(op, field, required) : describeFlag(spec);
}

// ---------------------------------------------------------------- the index, printing

/** One command as the index builder takes it. */
export interface IndexedCommand {
  /** Space-separated id. */
  readonly id: string;
  readonly summary: string;
  readonly hidden: boolean;
  /** One of cdpctl's own commands (oclif renders its help), not an API command. */
  readonly own: boolean;
  /** An own command's visible flags: fixed values, [] for any value, null for a switch. */
  readonly flags?: Readonly<Record<string, readonly string[] | null>>;
}

/** The index the listings read (scripts/manifest.mjs writes it at build time; a test checks it is current). */
export function buildHelpIndex(
  pkg: { readonly version: string; readonly description: string },
  commands: readonly IndexedCommand[],
  topics: Readonly<Record<string, string>>,
): HelpIndex {
  const visible = commands.filter((c) => !c.hidden).sort((a, b) => byText(a.id, b.id));
  const shown = Object.keys(topics)
    .filter((t) => visible.some((c) => c.id.startsWith(`${t} `)))
    .sort();
  return {
    version: pkg.version,
    description: pkg.description,
    topics: Object.fromEntries(shown.map((t) => [t, topics[t] ?? ''])),
    commands: Object.fromEntries(visible.map((c) => [c.id, c.summary])),
    own: commands
      .filter((c) => c.own)
      .map((c) => c.id)
      .sort(),
    ownFlags: Object.fromEntries(
      commands
        .filter((c) => c.own && !c.hidden && c.flags)
        .sort((a, b) => byText(a.id, b.id))
        .map((c) => [c.id, c.flags ?? {}]),
    ),
  };
}

/** The context both the fast path and oclif's help use: same width, same index, same bytes. */
export function helpContext(bin: string, root: string, env?: Readonly<Record<string, string | undefined>>): HelpContext {
  let index: HelpIndex | undefined;
  return {
    bin,
    width: helpWidth(env),
    index: () => (index ??= JSON.parse(readFileSync(join(root, HELP_INDEX_PATH), 'utf8')) as HelpIndex),
  };
}

/**
 * Writes help to stdout, straight to the file descriptor (creating
 * process.stdout for a pipe costs milliseconds); a reader that goes away
 * early (`| head`) is no error.
 */
export async function writeHelp(text: string): Promise<void> {
  try {
    writeToDescriptor(1, text);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPIPE') throw err;
  }
}
