/**
 * The base of every cdpctl command under oclif: the entry that parses the
 * command line, builds the run context once from its flags, runs the
 * command's `execute` with it and shows what it returns (render.ts show),
 * and the one place that turns any error into `code: message` (or a JSON
 * error with --output json) on stderr and the exit code of DESIGN "Exit
 * codes". Never a stack trace unless --debug.
 */
import { Command, Errors, type Interfaces } from '@oclif/core';
import { suggest } from '../core/validate.js';
import { dropUndeclaredGlobals, wantsJsonErrors } from './argv.js';
import { RunContext, type ParsedFlags } from './context.js';
import { show, type Output } from './render.js';
import { reportError, stderrColor } from './report.js';

/** A command line parsed by a command class's flags and args. */
export interface ParsedLine<T extends typeof Command> {
  readonly flags: Interfaces.InferredFlags<T['flags']>;
  readonly args: Interfaces.InferredArgs<T['args']>;
  /** The arguments beyond the declared ones (a command that is not strict). */
  readonly argv: readonly unknown[];
}

export abstract class BaseCommand<T extends typeof Command = typeof Command> extends Command {
  /** Set by run() once flags are known, for error rendering. */
  private errorStyle = { json: false, debug: false };
  private ctx?: RunContext;
  /** Global flags of the official CLI that this command does not declare are dropped, as `cdp` ignores them. */
  protected dropsForeignGlobals = true;

  /** What the command does with its command line, in the context built from it; returns what to show. */
  protected abstract execute(ctx: RunContext, line: ParsedLine<T>): Promise<Output>;

  /** The command line parsed by the class's flags and args; a command whose flags come from elsewhere overrides it. */
  protected async parseLine(argv?: string[]): Promise<ParsedLine<T>> {
    return (await this.parse(this.ctor, argv)) as unknown as ParsedLine<T>;
  }

  async init(): Promise<void> {
    if (this.dropsForeignGlobals) {
      const flags = { ...(this.ctor.baseFlags ?? {}), ...(this.ctor.flags ?? {}) };
      const declared = new Set<string>();
      for (const [name, f] of Object.entries(flags)) {
        declared.add(name);
        if (f.char) declared.add(f.char);
        for (const a of f.aliases ?? []) declared.add(a);
      }
      this.argv = dropUndeclaredGlobals(this.argv, declared);
    }
    await super.init();
  }

  async run(): Promise<void> {
    const line = await this.parseLine();
    const flags = line.flags as ParsedFlags;
    this.errorStyle = { json: flags.output === 'json', debug: Boolean(flags.debug) };
    const ctx = (this.ctx = new RunContext(flags, { bin: this.config.bin }));
    try {
      const code = await show(ctx.io, await this.execute(ctx, line));
      if (code !== 0) process.exitCode = code;
    } finally {
      ctx.close();
    }
  }

  async catch(err: Error & { exitCode?: number }): Promise<void> {
    const json = this.errorStyle.json || wantsJsonErrors(this.argv);
    const debug = this.errorStyle.debug || this.argv.includes('--debug');
    // Colour as the whole command line says (--color may be a global flag this command does not declare).
    const code = reportError(withFlagHint(err), { json, debug, color: stderrColor(), io: this.ctx?.io });
    process.exitCode = code;
    // oclif's run() treats a thrown error as fatal output; we already reported it.
    throw new Errors.ExitError(code);
  }
}

/**
 * oclif's NonExistentFlagsError, told by what it carries (the flags it did
 * not know, and the parse they failed in); oclif does not export the class.
 */
interface UnknownFlagError extends Error {
  flags: unknown[];
  parse: { input?: { flags?: Record<string, { aliases?: string[]; hidden?: boolean }> } };
}

const isUnknownFlagError = (err: unknown): err is UnknownFlagError =>
  err instanceof Errors.CLIError && 'parse' in err && Array.isArray((err as { flags?: unknown }).flags);

/** oclif's unknown-flag error, with `(did you mean "--x"?)` for a near miss among the command's flags. */
export function withFlagHint<E>(err: E): E {
  if (!isUnknownFlagError(err)) return err;
  const defs = err.parse.input?.flags;
  if (!defs) return err;
  const known = Object.entries(defs)
    .filter(([, f]) => !f.hidden)
    .flatMap(([name, f]) => [name, ...(f.aliases ?? [])]);
  const given = err.flags.map(String);
  const hints = given.map((f) => {
    const hint = suggest(f.replace(/^-+/, '').split('=')[0] ?? '', known);
    return hint ? hint.replace(/"([^"]+)"/, '"--$1"') : '';
  });
  // The first line is the one oclif's class writes from the flags; the hinted line takes its place.
  const plain = `Nonexistent flag${given.length === 1 ? '' : 's'}: ${given.join(', ')}`;
  if (hints.some(Boolean) && err.message.startsWith(plain)) {
    const hinted = `Nonexistent flag${given.length === 1 ? '' : 's'}: ${given.map((f, i) => `${f}${hints[i] ?? ''}`).join(', ')}`;
    err.message = hinted + err.message.slice(plain.length);
  }
  return err;
}
