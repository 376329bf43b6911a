/**
 * oclif's help class for cdpctl (`helpClass` in .oclifrc.json): the root,
 * topics and API commands are rendered by help.ts, the renderer the fast
 * path prints with, so `--help` reads the same whichever path answers.
 * cdpctl's own commands keep oclif's layout, with two fixes: the summary is
 * not repeated under DESCRIPTION, and USAGE never breaks a flag from its value.
 * Words that name no command get the same answer as a mistyped command.
 */
import { CommandHelp, Errors, Help, type Interfaces } from '@oclif/core';
import { helpContext, helpFor, helpWords, writeHelp } from './help.js';
import { helpWidth, synopsisUnits, wrapSynopsis } from './help-text.js';

class OwnCommandHelp extends CommandHelp {
  protected description(): string | undefined {
    const { summary, description } = this.command;
    const text = (description ?? '').trim();
    return text && text !== summary?.trim() ? this.wrap(text) : undefined;
  }

  protected usage(): string {
    const { id, usage } = this.command;
    const words = id.split(':');
    return (usage ? [usage].flat() : [this.defaultUsage()])
      .map((u) => {
        const rest = u
          .replace('<%= command.id %>', '')
          .replace(new RegExp(`^(${id}|${words.join(' ')})`), '')
          .trim();
        return wrapSynopsis(['$', this.config.bin, ...words, ...synopsisUnits(rest)], helpWidth() - this.indentSpacing, 0);
      })
      .join('\n');
  }
}

export default class CdpctlHelp extends Help {
  protected CommandHelpClass = OwnCommandHelp;

  constructor(config: Interfaces.Config, opts: Partial<Interfaces.HelpOptions> = {}) {
    super(config, { ...opts, maxWidth: helpWidth() });
  }

  async showHelp(argv: string[]): Promise<void> {
    const text = this.opts.all ? undefined : await helpFor(argv, helpContext(this.config.bin, this.config.root));
    if (text !== undefined) return writeHelp(text);
    try {
      await super.showHelp(argv);
    } catch (err) {
      // oclif's own error for words that name neither a command nor a topic: answered as a mistyped
      // command is (the nearest one named), without a prompt.
      const id = helpWords(argv).join(':');
      const namesNothing = id !== '' && !this.config.findCommand(id) && !this.config.findTopic(id);
      if (!(err instanceof Errors.CLIError) || err instanceof Errors.ModuleLoadError || !namesNothing) throw err;
      const result = await this.config.runHook('command_not_found', { id, argv: [...argv, '--no-input'] });
      throw result.failures[0]?.error ?? err;
    }
  }
}
