import { Flags } from '@oclif/core';
import { BaseCommand } from '../../lib/cli/base-command.js';
import { IO } from '../../lib/cli/io.js';
import { configPaths, loadProfile, setValue } from '../../lib/core/config.js';
import { usageError } from '../../lib/core/errors.js';
import { parsePrivateKey } from '../../lib/core/signing.js';

export default class Configure extends BaseCommand {
  static summary = 'Set up a credential profile interactively.';
  static description =
    'Asks for the access key ID, private key, region and output format, and writes them to the same files the official CLI reads (~/.cdp/credentials and ~/.cdp/config, mode 0600). Values you leave empty keep what is there. Without a terminal, use `configure set`.';
  static examples = ['<%= config.bin %> configure', '<%= config.bin %> configure --profile prod'];
  static flags = {
    profile: Flags.string({ description: 'Profile to write (default: $CDP_PROFILE or "default").' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Configure);
    const io = new IO();
    const profile = flags.profile || process.env.CDP_PROFILE || 'default';
    if (!io.canPrompt) {
      throw usageError('configure needs a terminal to ask questions; use `cdpctl configure set KEY VALUE --profile NAME` in scripts');
    }
    let current: Record<string, string> = {};
    try {
      current = { ...loadProfile(profile, { ...process.env, CDP_PROFILE: undefined }).values };
    } catch {
      current = {};
    }
    const { default: Enquirer } = await import('enquirer');
    const mask = (v?: string): string => (v ? `****${v.slice(-4)}` : 'none');
    const answers = (await Enquirer.prompt([
      { type: 'input', name: 'cdp_access_key_id', message: `Access key ID [${current.cdp_access_key_id ?? 'none'}]` },
      { type: 'password', name: 'cdp_private_key', message: `Private key [${mask(current.cdp_private_key)}]` },
      {
        type: 'select',
        name: 'cdp_region',
        message: 'Region',
        choices: ['us-west-1', 'eu-1', 'ap-1', 'usg-1'],
        initial: Math.max(0, ['us-west-1', 'eu-1', 'ap-1', 'usg-1'].indexOf(current.cdp_region ?? 'us-west-1')),
      },
      {
        type: 'select',
        name: 'output',
        message: 'Output format',
        choices: ['json', 'yaml', 'table', 'text', 'jsonl'],
        initial: Math.max(0, ['json', 'yaml', 'table', 'text', 'jsonl'].indexOf(current.output ?? 'json')),
      },
    ])) as Record<string, string>;
    if (answers.cdp_private_key) {
      // Refuse a key we could not sign with, before writing it anywhere.
      parsePrivateKey(answers.cdp_access_key_id || current.cdp_access_key_id || 'new-key', answers.cdp_private_key);
      answers.cdp_private_key = answers.cdp_private_key.replace(/\r?\n/g, '\\n');
    }
    for (const [key, value] of Object.entries(answers)) {
      if (value && value !== current[key]) await setValue(profile, key, value);
    }
    const paths = configPaths();
    io.info(`Profile "${profile}" saved to ${paths.credentials} and ${paths.config}.`);
  }
}
