import { BaseCommand } from '../lib/cli/base-command.js';
import { globalFlagsUsing } from '../lib/cli/flags.js';
import { ioFor } from '../lib/cli/run-operation.js';
import { configPaths, readIni, sectionName, setCredentials } from '../lib/core/config.js';

export default class Logout extends BaseCommand {
  static summary = "Remove a profile's access key from the credentials file.";
  static description = [
    'As `cdp logout`: blanks cdp_access_key_id and cdp_private_key of the profile in ~/.cdp/credentials; its other settings and other profiles stay.',
    'The key itself stays valid in the account until it is deleted: `cdpctl iam access-keys delete --access-key-id ID`.',
  ].join('\n\n');
  static examples = ['<%= config.bin %> logout', '<%= config.bin %> logout --profile emulator'];
  static flags = globalFlagsUsing(['profile', 'color']);

  async run(): Promise<void> {
    const { flags } = await this.parse(Logout);
    this.errorStyle = { json: flags.output === 'json', debug: Boolean(flags.debug) };
    const env = process.env;
    const io = ioFor(flags, env);
    const profile = flags.profile || env.CDP_PROFILE || 'default';
    const path = configPaths(env).credentials;
    const section = readIni(path)[sectionName(profile, 'credentials')];
    const keyId = typeof section?.cdp_access_key_id === 'string' ? section.cdp_access_key_id : '';
    const hasKey = keyId !== '' || (typeof section?.cdp_private_key === 'string' && section.cdp_private_key !== '');
    if (!hasKey) {
      io.info(`Profile "${profile}" has no access key in ${path}; nothing to remove.`);
      return;
    }
    await setCredentials(profile, '', '', env);
    io.info(`Removed the access key ${keyId || '(unnamed)'} of profile "${profile}" from ${path}.`);
    if (keyId) io.info(`It stays valid in the account until deleted: ${this.config.bin} iam access-keys delete --access-key-id ${keyId}`);
    if (env.CDP_ACCESS_KEY_ID && env.CDP_PRIVATE_KEY) io.warn('CDP_ACCESS_KEY_ID and CDP_PRIVATE_KEY are still set in the environment.');
  }
}
