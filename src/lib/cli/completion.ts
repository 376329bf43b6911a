/**
 * Shell completion, answered by cdpctl itself: the shell hands over the line
 * up to the cursor (`cdpctl __complete bash "<line>"`) and prints what comes
 * back. The answers come from the same model and flag specs the commands are
 * made of, so they cover both command forms (`iam users list` and the
 * official `iam list-users`), the official service names (`dfworkload`,
 * `cloudprivatelinks`, `lakehouseopt`), every flag, and the values of flags
 * that have a fixed set (enums of the model, `--output`, `--profile` from the
 * profile files). Nothing is cached, so an upgrade never leaves completion
 * stale. Why not @oclif/plugin-autocomplete: see docs/architecture.md.
 */
import { profileNames, readIni, type Env } from '../core/config.js';
import { loadService, SERVICES, topicFor, type Operation } from '../model/index.js';
import { GLOBAL_FLAG_SPECS, operationFlagSpecs, type FlagSpec } from './flag-spec.js';
import type { HelpIndex } from './help.js';

/** The shells a script is written for. */
export const SHELLS = ['bash', 'zsh'] as const;
export type Shell = (typeof SHELLS)[number];

/** A flag as completion sees it: the values it takes (empty: any), or null for a switch. */
type FlagValues = readonly string[] | null;

/** The command line up to the cursor, as words; the last is the word being completed (empty after a space). */
export function wordsOfLine(line: string): string[] {
  const words = line.split(/\s+/).filter((w, i, all) => w !== '' || i === all.length - 1);
  // The program's own name is not part of the command.
  return words.slice(1);
}

/** The profiles of the credential and config files, for --profile; a file that cannot be read gives none. */
function profileNamesOrNone(env: Env): string[] {
  return profileNames(env, (file) => {
    try {
      return readIni(file);
    } catch {
      return {};
    }
  });
}

const specValues = (spec: FlagSpec): FlagValues => (spec.type === 'boolean' ? null : (spec.options ?? []));

/** Where completion stands: the command the words name so far, and its flags. */
interface Place {
  /** Command words typed so far (the topic as typed). */
  readonly path: readonly string[];
  /** The operation the path names, when it names one. */
  readonly op?: Operation;
  /** Flags of that command (the global flags until a command is named). */
  readonly flags: Readonly<Record<string, FlagValues>>;
}

const GLOBAL_VALUES: Readonly<Record<string, FlagValues>> = Object.fromEntries(
  Object.entries(GLOBAL_FLAG_SPECS).map(([name, spec]) => [name, specValues(spec)]),
);

/**
 * Command words before the first flag, skipping global flags (and their
 * values) given before the command; `flagsAfter` when flags follow them.
 */
function commandPath(before: readonly string[]): { path: string[]; flagsAfter: boolean } {
  const path: string[] = [];
  for (let i = 0; i < before.length; i++) {
    const w = before[i] ?? '';
    if (w.startsWith('-')) {
      if (path.length > 0) return { path, flagsAfter: true };
      const values = GLOBAL_VALUES[w.replace(/^--?/, '').split('=')[0] ?? ''];
      if (values !== null && values !== undefined && !w.includes('=')) i++;
      continue;
    }
    path.push(w);
  }
  return { path, flagsAfter: false };
}

/** Every visible command of a service in both forms, as word lists under the topic as typed. */
function serviceCommands(ops: readonly Operation[], typedTopic: string): Array<{ words: string[]; op: Operation }> {
  const out: Array<{ words: string[]; op: Operation }> = [];
  for (const op of ops) {
    if (op.cli.hidden || op.wire.deprecated) continue;
    for (const id of [op.commandId, op.aliasId]) out.push({ words: [typedTopic, ...id.split(' ').slice(1)], op });
  }
  return out;
}

const sameStart = (words: readonly string[], path: readonly string[]): boolean => path.every((w, i) => words[i] === w);

/** The candidates for the word being completed; the shell's script prints them, one per line. */
export async function complete(shell: Shell, words: readonly string[], index: HelpIndex, env: Env): Promise<string[]> {
  const current = words.at(-1) ?? '';
  const before = words.slice(0, -1);
  const { path, flagsAfter } = commandPath(before);
  const place = await placeOf(path, index);
  const previous = before.at(-1);
  const pick = (list: Iterable<string>): string[] => [...new Set([...list].filter((c) => c.startsWith(current)))].sort();

  // A value for the flag just before: its fixed set, profile names, or nothing (the shell's file names).
  if (previous?.startsWith('--') && !previous.includes('=')) {
    const name = previous.slice(2);
    const values = place.flags[name];
    if (values !== null && values !== undefined) return pick(name === 'profile' ? profileNamesOrNone(env) : values);
  }
  if (current.startsWith('--') && current.includes('=')) {
    const [flag = '', typed = ''] = current.slice(2).split(/=(.*)/s);
    const values = place.flags[flag];
    if (!values) return [];
    const list = (flag === 'profile' ? profileNamesOrNone(env) : values).filter((v) => v.startsWith(typed));
    // bash completes the word after the `=` (COMP_WORDBREAKS has it); zsh the whole word.
    return shell === 'bash' ? list : list.map((v) => `--${flag}=${v}`);
  }
  if (current.startsWith('-')) {
    const given = new Set(before.filter((w) => w.startsWith('--')).map((w) => w.slice(2).split('=')[0]));
    return pick(
      Object.keys(place.flags)
        .filter((f) => !given.has(f))
        .map((f) => `--${f}`),
    );
  }
  // A command word: only where the line has no flags yet (after them come values, not commands).
  if (flagsAfter || place.op) return [];
  return pick(nextWords(path, index, await commandsUnder(path)));
}

/** The model's commands under a typed topic, in both forms. */
async function commandsUnder(path: readonly string[]): Promise<Array<{ words: string[]; op: Operation }>> {
  const typed = path[0];
  const topic = typed === undefined ? undefined : topicFor(typed);
  if (typed === undefined || topic === undefined) return [];
  return serviceCommands((await loadService(topic)).operations(), typed);
}

/** The words that can come next after the path: topics, services' commands, cdpctl's own commands. */
function nextWords(path: readonly string[], index: HelpIndex, commands: ReadonlyArray<{ words: string[] }>): string[] {
  const at = path.length;
  if (at === 0) {
    const own = index.own.map((id) => id.split(' ')[0] ?? '');
    return [...SERVICES.flatMap((s) => [s.topic, s.wire]), ...own, 'help'];
  }
  const out = commands.filter((c) => c.words.length > at && sameStart(c.words, path)).map((c) => c.words[at] ?? '');
  for (const id of index.own) {
    const words = id.split(' ');
    if (words.length > at && sameStart(words, path)) out.push(words[at] ?? '');
  }
  return out;
}

/** The command a path names and its flags. */
async function placeOf(path: readonly string[], index: HelpIndex): Promise<Place> {
  const commands = await commandsUnder(path);
  const hit = commands.find((c) => c.words.length === path.length && sameStart(c.words, path));
  if (hit) {
    const flags = Object.fromEntries(
      Object.entries(operationFlagSpecs(hit.op))
        .filter(([, spec]) => !spec.hidden)
        .map(([name, spec]) => [name, specValues(spec)]),
    );
    return { path, op: hit.op, flags };
  }
  const own = index.ownFlags?.[path.join(' ')];
  return { path, flags: own ?? GLOBAL_VALUES };
}

/** What `<bin> __complete <shell> "<line>"` prints: the candidates, one per line (one that holds a line break cannot be said so, and is left out). */
export async function completeLine(shell: string, line: string, index: HelpIndex, env: Env): Promise<string> {
  if (!(SHELLS as readonly string[]).includes(shell)) return '';
  const found = (await complete(shell as Shell, wordsOfLine(line), index, env)).filter((c) => !/[\n\r]/.test(c));
  return found.length > 0 ? `${found.join('\n')}\n` : '';
}

/**
 * The script a shell sources; it asks `<bin> __complete <shell> "<line up
 * to the cursor>"` at each TAB. Candidates are data, never code: a profile
 * may be named `` zb$(touch pwned) `` or `*`. bash reads them a line at a
 * time into the reply (no word splitting, no globbing) and quotes each with
 * `printf %q`, since bash inserts a reply as it is; zsh's compadd quotes
 * them itself (no -Q).
 */
export function completionScript(shell: Shell, bin: string): string {
  const fn = `_${bin.replace(/[^A-Za-z0-9_]/g, '_')}_complete`;
  if (shell === 'bash')
    return [
      `# ${bin} completion for bash: eval "$(${bin} autocomplete bash)" in ~/.bashrc`,
      `${fn}() {`,
      `  local candidate quoted`,
      `  COMPREPLY=()`,
      `  while IFS= read -r candidate; do`,
      `    printf -v quoted '%q' "$candidate"`,
      `    COMPREPLY+=("$quoted")`,
      `  done < <(${bin} __complete bash "\${COMP_LINE:0:COMP_POINT}" 2>/dev/null)`,
      `}`,
      // Nothing offered (a file argument): the shell's own file names.
      `complete -o default -o bashdefault -F ${fn} ${bin}`,
      '',
    ].join('\n');
  return [
    `#compdef ${bin}`,
    `# ${bin} completion for zsh: eval "$(${bin} autocomplete zsh)" in ~/.zshrc, after compinit`,
    `${fn}() {`,
    `  local -a reply`,
    `  reply=("\${(@f)$(${bin} __complete zsh "\${(j: :)words[1,CURRENT]}" 2>/dev/null)}")`,
    `  if [[ -n "\${reply[1]}" ]]; then compadd -- "\${reply[@]}"; else _files; fi`,
    `}`,
    `(( $+functions[compdef] )) || { autoload -Uz compinit && compinit; }`,
    `compdef ${fn} ${bin}`,
    '',
  ].join('\n');
}
