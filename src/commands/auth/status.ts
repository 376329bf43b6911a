import { Flags } from '@oclif/core';
import { BaseCommand, type ParsedLine } from '../../lib/cli/base-command.js';
import type { RunContext } from '../../lib/cli/context.js';
import { CALL_FLAGS, globalFlagsUsing } from '../../lib/cli/flags.js';
import type { Output } from '../../lib/cli/render.js';
import { toCdpError } from '../../lib/cli/report.js';
import { ExitCode } from '../../lib/core/errors.js';
import { visibleValue } from '../../lib/core/visible.js';
import { keyInfo, whoAmI, type Identity, type KeyInfo } from '../../lib/core/whoami.js';
import { loadService } from '../../lib/model/index.js';

export interface StatusReport {
  readonly profile: string;
  readonly endpoint?: string;
  readonly accessKey?: KeyInfo;
  readonly identity?: Identity;
  readonly keyWorks: boolean;
  readonly error?: { readonly code: string; readonly message: string };
}

export default class AuthStatus extends BaseCommand<typeof AuthStatus> {
  static summary = 'Show who a profile signs in as, and whether its key works.';
  static description = [
    'For the profile: the user or machine user its access key belongs to, the account, the key ID and type, the endpoint, and whether the key works: one signed `iam getUser` tells.',
    'Exits 0 when the key works, 3 when there is no usable key or the control plane refuses it, 4 when the endpoint cannot be reached.',
  ].join('\n\n');
  static examples = [
    '<%= config.bin %> auth status',
    '<%= config.bin %> auth status --profile emulator',
    '<%= config.bin %> auth status --output json',
  ];
  static flags = {
    ...globalFlagsUsing(CALL_FLAGS),
    output: Flags.string({ char: 'o', options: ['text', 'json'], default: 'text', description: 'Output format.', helpGroup: 'GLOBAL' }),
  };

  protected async execute(ctx: RunContext, { flags }: ParsedLine<typeof AuthStatus>): Promise<Output> {
    const client = ctx.client();
    const status: { -readonly [K in keyof StatusReport]: StatusReport[K] } = {
      profile: flags.profile || ctx.env.CDP_PROFILE || 'default',
      keyWorks: false,
    };
    let exitCode: number = ExitCode.ok;
    try {
      status.profile = client.profile.profile;
      status.endpoint = client.baseUrl((await loadService('iam')).def.facts);
      status.accessKey = keyInfo(client);
      status.identity = await whoAmI(client);
      status.keyWorks = true;
    } catch (err) {
      const e = toCdpError(err);
      status.error = { code: e.code, message: e.message };
      exitCode = e.exitCode;
    }
    if (flags.output === 'json') {
      const { profile, endpoint, accessKey, identity, keyWorks, error } = status;
      return { kind: 'answer', value: { profile, endpoint, accessKey, identity, keyWorks, error }, render: { format: 'json' }, exitCode };
    }
    return { kind: 'text', text: describe(visibleValue(status) as StatusReport, ctx.io.colorOn('out'), ctx.bin), styled: true, exitCode };
  }
}

/** gh's layout: the profile, a ✓ or ✗ line, then the details. */
export function describe(s: StatusReport, color: boolean, bin: string): string {
  const paint = (code: number, text: string): string => (color ? `\u001b[${code}m${text}\u001b[39m` : text);
  const lines = [`Profile "${s.profile}"${s.endpoint ? ` at ${s.endpoint}` : ''}`];
  const id = s.identity;
  if (s.keyWorks && id) {
    const role = id.kind === 'machineUser' ? 'machine user' : id.accountAdmin ? 'user, account admin' : 'user';
    lines.push(`  ${paint(32, '✓')} Signed in as ${id.name} (${role})`);
    lines.push(`  - Account: ${id.accountId}`);
    lines.push(`  - CRN: ${id.crn}`);
  } else if (s.error) {
    lines.push(`  ${paint(31, '✗')} ${s.accessKey ? 'The key does not work' : 'Not signed in'}: ${s.error.code}: ${s.error.message}`);
  }
  const k = s.accessKey;
  if (k) lines.push(`  - Access key: ${k.accessKeyId} (${k.type}, ${k.algorithm}) from ${k.source}`);
  if (!s.keyWorks && (!k || s.error?.code === 'UNAUTHENTICATED' || s.error?.code === 'PERMISSION_DENIED')) {
    lines.push(`  - To sign in: ${bin} login${s.profile === 'default' ? '' : ` --profile ${s.profile}`}`);
  }
  return lines.join('\n') + '\n';
}
