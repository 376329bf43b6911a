import { Args, Flags } from '@oclif/core';
import { BaseCommand, type ParsedLine } from '../../lib/cli/base-command.js';
import type { RunContext } from '../../lib/cli/context.js';
import { readAllStdin, readValue, decodeUtf8 } from '../../lib/cli/input.js';
import { nothing, type Output } from '../../lib/cli/render.js';
import { checkSetting, settingFor, SETTING_NAMES } from '../../lib/cli/settings.js';
import { setValue } from '../../lib/core/config.js';
import { usageError } from '../../lib/core/errors.js';

export default class ConfigureSet extends BaseCommand<typeof ConfigureSet> {
  static summary = 'Set one value of a profile.';
  static description = [
    `Credential keys go to the credentials file, the rest to the config file; the file is edited in place (comments and other keys stay) and written atomically with mode 0600. Settings: ${SETTING_NAMES.join(', ')}; any other name is refused, so a typo is never written.`,
    'Values are checked before they are written: cdp_region and form_factor must be known values, output a known format, the URL settings http(s) URLs, cdp_private_key a key cdpctl can sign with.',
    'VALUE may be file://PATH or - (standard input); multi-line values such as PEM keys are stored on one line with \\n for each newline, as the official CLI reads them. A PEM value can also be given directly.',
  ].join('\n\n');
  static examples = [
    '<%= config.bin %> configure set cdp_region eu-1',
    '<%= config.bin %> configure set cdp_endpoint_url http://localhost:8080/ --profile local',
    '<%= config.bin %> configure set cdp_private_key file://key.pem --profile ci',
  ];
  static args = {
    key: Args.string({ description: 'Setting name, e.g. cdp_region.', required: true }),
    value: Args.string({ description: 'Its new value, file://PATH, or - for standard input.', required: true }),
  };
  static flags = { profile: Flags.string({ description: 'Profile to change (default: $CDP_PROFILE or "default").' }) };
  // Extra words are reported by run() with a clearer message than oclif's.
  static strict = false;

  /** A PEM value starts with dashes and would be taken for a flag: it is parsed as if given after `--`. */
  protected async parseLine(): Promise<ParsedLine<typeof ConfigureSet>> {
    const pem = this.argv.includes('--') ? -1 : this.argv.findIndex((a) => a.startsWith('-----BEGIN'));
    return super.parseLine(pem < 0 ? this.argv : [...this.argv.slice(0, pem), ...this.argv.slice(pem + 1), '--', this.argv[pem] ?? '']);
  }

  protected async execute(ctx: RunContext, { args, flags, argv: rest }: ParsedLine<typeof ConfigureSet>): Promise<Output> {
    const extra = rest.slice(2);
    if (extra.length > 0) throw usageError('configure set takes one KEY and one VALUE (quote values with spaces)');
    // A misspelled name is refused before anything is read or written.
    settingFor(args.key);
    let value = args.value;
    if (value === '-') value = decodeUtf8(await readAllStdin(), 'standard input');
    else value = readValue(value, 'VALUE');
    value = value.replace(/\r?\n$/, '').replace(/\r?\n/g, '\\n');
    checkSetting(args.key, value);
    const profile = flags.profile || ctx.env.CDP_PROFILE || 'default';
    await setValue(profile, args.key, value, ctx.env);
    return nothing();
  }
}
