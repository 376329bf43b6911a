/**
 * The base of every cdpctl command: one place that turns any error into
 * `code: message` (or a JSON error with --output json) on stderr and the
 * exit code of DESIGN "Exit codes". Never a stack trace unless --debug.
 */
import { Command } from '@oclif/core';
import { suggest } from '../core/validate.js';
import { dropUndeclaredGlobals, wantsJsonErrors } from './argv.js';
import { reportError, stderrColor } from './report.js';

export { reportError, toCdpError } from './report.js';

export abstract class BaseCommand extends Command {
  /** Set by run() once flags are known, for error rendering. */
  protected errorStyle = { json: false, debug: false };
  /** Global flags of the official CLI that this command does not declare are dropped, as `cdp` ignores them. */
  protected dropsForeignGlobals = true;

  async init(): Promise<void> {
    if (this.dropsForeignGlobals) {
      const ctor = this.constructor as typeof Command;
      const flags = { ...(ctor.baseFlags ?? {}), ...(ctor.flags ?? {}) };
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

  async catch(err: Error & { exitCode?: number }): Promise<void> {
    const json = this.errorStyle.json || wantsJsonErrors(this.argv);
    const debug = this.errorStyle.debug || this.argv.includes('--debug');
    const color = stderrColor();
    const code = reportError(withFlagHint(err), { json, debug, color });
    process.exitCode = code;
    // oclif's run() treats a thrown error as fatal output; we already reported it.
    const { Errors } = await import('@oclif/core');
    throw new Errors.ExitError(code);
  }
}

interface UnknownFlagError extends Error {
  flags?: unknown;
  parse?: { input?: { flags?: Record<string, { aliases?: string[]; hidden?: boolean }> } };
}

/** oclif's unknown-flag error, with `(did you mean "--x"?)` for a near miss among the command's flags. */
export function withFlagHint<E>(err: E): E {
  const e = err as unknown as UnknownFlagError;
  const defs = e instanceof Error && Array.isArray(e.flags) ? e.parse?.input?.flags : undefined;
  if (!defs || !/^Nonexistent flags?: /.test(e.message)) return err;
  const known = Object.entries(defs)
    .filter(([, f]) => !f.hidden)
    .flatMap(([name, f]) => [name, ...(f.aliases ?? [])]);
  const hints = (e.flags as unknown[]).map((f) => {
    const name = String(f).replace(/^-+/, '').split('=')[0] ?? '';
    const hint = suggest(name, known);
    return hint ? hint.replace(/"([^"]+)"/, '"--$1"') : '';
  });
  if (hints.some(Boolean)) {
    const line = `Nonexistent flag${hints.length > 1 ? 's' : ''}: ${(e.flags as unknown[]).map((f, i) => `${String(f)}${hints[i] ?? ''}`).join(', ')}`;
    e.message = e.message.replace(/^Nonexistent flags?: [^\n]*/, line);
  }
  return err;
}
