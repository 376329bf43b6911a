import { randomUUID } from 'node:crypto';
import { Flags } from '@oclif/core';
import { BaseCommand } from '../lib/cli/base-command.js';
import { CALL_FLAGS, globalFlagsUsing } from '../lib/cli/flags.js';
import type { IO } from '../lib/cli/io.js';
import { startSpinner } from '../lib/cli/progress.js';
import { clientFor, ioFor } from '../lib/cli/run-operation.js';
import { openBrowser } from '../lib/core/browser.js';
import { loadProfile, setCredentials, type Env } from '../lib/core/config.js';
import { CdpError } from '../lib/core/errors.js';
import { DEFAULT_HTTP, HttpClient } from '../lib/core/http.js';
import {
  DEFAULT_LOGIN_TIMEOUT_S,
  awaitDeviceKey,
  browserLogin,
  consoleAddress,
  interrupted,
  requestDeviceCode,
  signInAddress,
  type ReceivedKey,
} from '../lib/core/login.js';
import { parsePrivateKey } from '../lib/core/signing.js';
import { whoAmI } from '../lib/core/whoami.js';

export default class Login extends BaseCommand {
  static summary = 'Sign in through the CDP console and save a new access key to a profile.';
  static description = [
    'Opens the console sign-in page in your browser ($BROWSER when set, else the system opener); after you sign in, the console sends a new access key back to cdpctl, which saves it to the profile in ~/.cdp/credentials (other profiles stay, mode 0600). When no browser can be opened, the address is printed to open by hand.',
    'With --use-device-code there is no browser on this machine to involve: cdpctl prints an address and a code to enter in a browser anywhere (for SSH sessions).',
    "The account comes from --account-id or the profile's account_id, the identity provider from --identity-provider or identity_provider, the console from the profile's login_url / device_login_url or the region. The profile \"emulator\" that `cdpctl emulator start` writes signs in on the emulator's own console pages.",
    'Ctrl-C stops waiting and saves nothing (exit 130); a sign-in the console refuses exits 3.',
  ].join('\n\n');
  static examples = [
    '<%= config.bin %> login --profile emulator',
    '<%= config.bin %> login --account-id 9d74eee4-1cad-45d7-b645-7ccf9edbb73d',
    '<%= config.bin %> login --use-device-code --profile prod',
  ];
  static flags = {
    'account-id': Flags.string({ description: "Account to sign in to (default: the profile's account_id)." }),
    'identity-provider': Flags.string({ description: "Name or CRN of the identity provider to sign in with (default: the account's)." }),
    'use-device-code': Flags.boolean({ description: 'Sign in with a code entered in a browser elsewhere (no browser needed here).' }),
    'login-url': Flags.string({ description: 'Console address to start the sign-in at.', hidden: true }),
    port: Flags.integer({
      description: "Port on localhost for the console's answer (default: a free one).",
      min: 0,
      max: 65535,
      hidden: true,
    }),
    timeout: Flags.integer({ description: `Seconds to wait for the sign-in (default ${DEFAULT_LOGIN_TIMEOUT_S}).`, min: 1, hidden: true }),
    ...globalFlagsUsing(CALL_FLAGS),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Login);
    this.errorStyle = { json: flags.output === 'json', debug: Boolean(flags.debug) };
    const env = process.env;
    const io = ioFor(flags, env);
    const profile = flags.profile || env.CDP_PROFILE || 'default';
    const config = profileValues(flags.profile, env);
    const device = flags['use-device-code'];
    const base = consoleAddress(device ? 'device' : 'browser', {
      explicit: flags['login-url'],
      config,
      region: flags['cdp-region'],
      env,
    });
    const clientId = device ? randomUUID() : undefined;
    const url = signInAddress(base, {
      accountId: flags['account-id'] ?? config.account_id,
      identityProvider: flags['identity-provider'] ?? config.identity_provider,
      clientId,
    });

    const abort = new AbortController();
    const onInterrupt = (): void => abort.abort();
    process.on('SIGINT', onInterrupt);
    let stopSpinner: ((result: string) => void) | undefined;
    const save = async (key: ReceivedKey): Promise<void> => {
      // A key cdpctl could not sign with is refused before it is written anywhere.
      parsePrivateKey(key.accessKeyId, key.privateKey);
      if (abort.signal.aborted) throw interrupted();
      await setCredentials(profile, key.accessKeyId, key.privateKey, env);
    };
    let key: ReceivedKey;
    try {
      if (device && clientId) {
        const http = new HttpClient({
          ...DEFAULT_HTTP,
          env,
          verifyTls: !flags['no-verify-tls'],
          caBundle: flags['ca-bundle'],
          debug: flags.debug ? (line) => io.debug(line) : undefined,
        });
        try {
          const code = await requestDeviceCode(http, url);
          // The official CLI's words, on stdout as there.
          await io.write(
            `To sign in, use a web browser to open the page ${code.verificationUrl} and enter the code ${code.userCode} to authenticate.\n`,
          );
          stopSpinner = startSpinner(
            io,
            `Waiting for the code to be entered (it expires in ${minutes(code.expiresInS)}; Ctrl-C to cancel)`,
          );
          key = await awaitDeviceKey(http, code, clientId, { signal: abort.signal });
          await save(key);
          stopSpinner('done');
          await io.write('Device login is successful.\n');
        } finally {
          http.close();
        }
      } else {
        key = await browserLogin({
          loginUrl: url,
          port: flags.port,
          timeoutMs: (flags.timeout ?? DEFAULT_LOGIN_TIMEOUT_S) * 1000,
          signal: abort.signal,
          profile,
          save,
          onListening: async (full) => {
            const showAddress = (): void => {
              const restart = Boolean(stopSpinner);
              stopSpinner?.('no browser');
              io.info(`Could not open a web browser. To sign in, open this address in one:\n\n  ${full.href}\n`);
              if (restart) stopSpinner = startSpinner(io, 'Waiting for you to sign in (Ctrl-C to cancel)');
            };
            const opened = await openBrowser(full.href, { env, onFailure: showAddress });
            if (opened.started) io.info('Opened the sign-in page in your web browser.');
            stopSpinner = startSpinner(io, 'Waiting for you to sign in (Ctrl-C to cancel)');
          },
        });
        stopSpinner?.('done');
      }
    } catch (err) {
      stopSpinner?.(err instanceof CdpError && err.kind === 'interrupted' ? 'cancelled' : 'failed');
      throw err;
    } finally {
      process.removeListener('SIGINT', onInterrupt);
    }
    await confirm(io, flags, profile, key);
  }
}

/** The profile's settings; a profile that does not exist yet is created by signing in. */
function profileValues(flagProfile: string | undefined, env: Env): Readonly<Record<string, string>> {
  try {
    return loadProfile(flagProfile, env).values;
  } catch (err) {
    if (err instanceof CdpError && err.code === 'PROFILE_NOT_FOUND') return {};
    throw err;
  }
}

const minutes = (s: number): string => (s >= 120 ? `${Math.round(s / 60)} minutes` : `${Math.round(s)} s`);

/** Says who the saved key signs as (one iam getUser with it); a failure here is a warning, the key is saved. */
async function confirm(io: IO, flags: Record<string, unknown>, profile: string, key: ReceivedKey): Promise<void> {
  const env: Env = { ...process.env, CDP_ACCESS_KEY_ID: undefined, CDP_PRIVATE_KEY: undefined };
  const saved = `the access key ${key.accessKeyId} is saved in profile "${profile}"`;
  if (process.env.CDP_ACCESS_KEY_ID && process.env.CDP_PRIVATE_KEY) {
    io.warn('CDP_ACCESS_KEY_ID and CDP_PRIVATE_KEY are set: commands use them rather than the key just saved.');
  }
  const client = clientFor({ ...flags, profile }, env, io);
  try {
    const who = await whoAmI(client);
    const role = who.kind === 'machineUser' ? 'machine user' : who.accountAdmin ? 'user, account admin' : 'user';
    io.info(`Signed in as ${who.name} (${role}) in account ${who.accountId}; ${saved}.`);
  } catch (err) {
    io.warn(`${saved}, but checking it failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    client.close();
  }
}
