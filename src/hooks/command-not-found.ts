/**
 * A mistyped command: suggest the nearest commands or aliases. When a person
 * is at the terminal (stdin and stdout both terminals, as IO decides) the
 * suggestion may be run at once; inside `$(...)`, in scripts and in CI it is
 * a usage error (exit 2) with the suggestion in the message, never a prompt.
 */
import type { Hook } from '@oclif/core';
import { Errors } from '@oclif/core';
import { wantsJsonErrors } from '../lib/cli/argv.js';
import { ioForArgv, yesNo } from '../lib/cli/io.js';
import { reportError } from '../lib/cli/report.js';
import { usageError } from '../lib/core/errors.js';
import { suggest } from '../lib/core/validate.js';

const hook: Hook<'command_not_found'> = async function (opts) {
  const config = opts.config;
  const argv = opts.argv ?? [];
  const io = ioForArgv(argv);
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
    json: wantsJsonErrors(argv),
    debug: false,
    io,
  });
  throw new Errors.ExitError(code);
};

export default hook;
