/**
 * A mistyped command: suggest the nearest commands or aliases. When a person
 * is at the terminal (stdin and stdout both terminals, as IO decides) the
 * suggestion may be run at once; inside `$(...)`, in scripts and in CI it is
 * a usage error (exit 2) with the suggestion in the message, never a prompt.
 */
import type { Hook, Interfaces } from '@oclif/core';
import { Errors } from '@oclif/core';
import { wantsJsonErrors } from '../lib/cli/argv.js';
import { ioForArgv, shellQuote, yesNo } from '../lib/cli/io.js';
import { reportError } from '../lib/cli/report.js';
import { usageError, type CdpError } from '../lib/core/errors.js';
import { printable, suggest } from '../lib/core/validate.js';

const hook: Hook<'command_not_found'> = async function (opts) {
  const config = opts.config;
  const argv = opts.argv ?? [];
  const io = ioForArgv(argv);
  const json = wantsJsonErrors(argv);
  const stray = strayArguments(config, opts.id, argv);
  if (stray) throw new Errors.ExitError(reportError(stray, { json, debug: false, io }));
  const ids = new Set<string>();
  for (const c of config.commands) {
    if (c.hidden) continue;
    ids.add(c.id);
    for (const a of c.hiddenAliases ?? []) ids.add(a);
  }
  const typed = opts.id.replace(/:/g, ' ');
  // Up to three, as the official CLI's "maybe you meant" lists them; the first is the one offered to run.
  const hint = suggest(
    typed,
    [...ids].map((i) => i.replace(/:/g, ' ')),
    3,
  );
  const best = /"([^"]+)"/.exec(hint)?.[1];
  if (best && io.canPrompt) {
    try {
      const run = await io.ask({ type: 'confirm', message: `"${typed}" is not a command. Run "${best}"?`, initial: true, format: yesNo });
      if (run === true) return config.runCommand(best.replace(/ /g, ':'), argv);
    } catch {
      // Ctrl-C: fall through to the usage error.
    }
  }
  const topic = typed.split(' ')[0] ?? '';
  const where = config.topics.some((t) => t.name === topic) ? `cdpctl ${topic} --help` : 'cdpctl --help';
  const code = reportError(usageError(`"${typed}" is not a cdpctl command${hint}`, [`See ${where} for the commands there are.`]), {
    json,
    debug: false,
    io,
  });
  throw new Errors.ExitError(code);
};

/**
 * A command followed by words it does not take (`emulator export state.json`):
 * oclif finds no command by all the words, but the first ones are one. Said
 * as such, and where the command has one required value flag not given,
 * with the word put where it belongs (`--file state.json`).
 */
function strayArguments(config: Interfaces.Config, id: string, argv: readonly string[]): CdpError | undefined {
  const words = id.split(':');
  for (let n = words.length - 1; n >= 1; n--) {
    const command = config.findCommand(words.slice(0, n).join(':'));
    if (!command) continue;
    const name = words.slice(0, n).join(' ');
    const extra = words.slice(n);
    const given = new Set(argv.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')[0]));
    const wanted = Object.entries(command.flags).filter(([flag, f]) => f.type === 'option' && f.required && !given.has(flag));
    const only = wanted.length === 1 ? wanted[0]?.[0] : undefined;
    const quoted = extra.map((w) => `"${printable(w, 100)}"`).join(' ');
    if (only && extra.length === 1)
      return usageError(`"${name}" takes no arguments: give ${quoted} as --${only} ${shellQuote(printable(extra[0] ?? '', 100))}`, [
        `See cdpctl ${name} --help.`,
      ]);
    return usageError(`"${name}" takes no arguments, but was given ${quoted}`, [`See cdpctl ${name} --help for its flags.`]);
  }
  return undefined;
}

export default hook;
