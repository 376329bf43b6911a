import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../lib/cli/base-command.js';
import { setValue } from '../../lib/core/config.js';
import { usageError } from '../../lib/core/errors.js';

/** Keys cdpctl reads; others are accepted (the files are shared with other tools) with a warning. */
export const KNOWN_KEYS = [
  'cdp_access_key_id',
  'cdp_private_key',
  'cdp_region',
  'cdp_endpoint_url',
  'endpoint_url',
  'form_factor',
  'output',
];

export default class ConfigureSet extends BaseCommand {
  static summary = 'Set one value of a profile.';
  static description = `Credential keys go to the credentials file, the rest to the config file; both are rewritten atomically with mode 0600. Known keys: ${KNOWN_KEYS.join(', ')}.`;
  static examples = [
    '<%= config.bin %> configure set cdp_region eu-1',
    '<%= config.bin %> configure set cdp_endpoint_url http://localhost:8080/ --profile local',
  ];
  static args = {
    key: Args.string({ description: 'Setting name, e.g. cdp_region.', required: true }),
    value: Args.string({ description: 'Its new value.', required: true }),
  };
  static flags = { profile: Flags.string({ description: 'Profile to change (default: $CDP_PROFILE or "default").' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ConfigureSet);
    if (!/^[A-Za-z0-9_.-]+$/.test(args.key)) throw usageError(`"${args.key}" is not a valid setting name`);
    if (/[\r\n]/.test(args.value)) throw usageError('values are one line; write PEM newlines as \\n');
    if (!KNOWN_KEYS.includes(args.key)) process.stderr.write(`warning: "${args.key}" is not a setting cdpctl reads\n`);
    const profile = flags.profile || process.env.CDP_PROFILE || 'default';
    await setValue(profile, args.key, args.value);
  }
}
