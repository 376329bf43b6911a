/**
 * A mistyped command: suggest the nearest command or alias. On a terminal
 * the user may run the suggestion at once; in scripts it is a usage error
 * (exit 2) with the suggestion in the message, never a prompt.
 */
import type { Hook } from '@oclif/core';
import { Errors } from '@oclif/core';
import { wantsJsonErrors } from '../lib/cli/argv.js';
import { reportError, stderrColor } from '../lib/cli/report.js';
import { usageError } from '../lib/core/errors.js';
import { suggest } from '../lib/core/validate.js';

const hook: Hook<'command_not_found'> = async function (opts) {
  const config = opts.config;
  const ids = new Set<string>();
  for (const c of config.commands) {
    if (c.hidden) continue;
    ids.add(c.id);
    for (const a of c.hiddenAliases ?? []) ids.add(a);
  }
  const typed = opts.id.replace(/:/g, ' ');
  const hint = suggest(
    typed,
    [...ids].map((i) => i.replace(/:/g, ' ')),
  );
  const best = /"([^"]+)"/.exec(hint)?.[1];
  const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY) && !process.env.CI && !(opts.argv ?? []).includes('--no-input');
  if (best && interactive) {
    const { default: Enquirer } = await import('enquirer');
    try {
      const { run } = (await Enquirer.prompt({
        type: 'confirm',
        name: 'run',
        message: `"${typed}" is not a command. Run "${best}"?`,
        initial: true,
        stdout: process.stderr,
      })) as { run: boolean };
      if (run) return config.runCommand(best.replace(/ /g, ':'), opts.argv);
    } catch {
      // Ctrl-C: fall through to the usage error.
    }
  }
  const topic = typed.split(' ')[0] ?? '';
  const where = config.topics.some((t) => t.name === topic) ? `cdpctl ${topic} --help` : 'cdpctl --help';
  const code = reportError(usageError(`"${typed}" is not a cdpctl command${hint}`, [`See ${where} for the commands there are.`]), {
    json: wantsJsonErrors(opts.argv ?? []),
    debug: false,
    color: stderrColor(),
  });
  throw new Errors.ExitError(code);
};

export default hook;
