import { randomUUID } from 'node:crypto';
import { Flags } from '@oclif/core';
import { BaseCommand, type ParsedLine } from '../lib/cli/base-command.js';
import type { RunContext } from '../lib/cli/context.js';
import { CALL_FLAGS, globalFlagsUsing } from '../lib/cli/flags.js';
import { startSpinner } from '../lib/cli/progress.js';
import type { Note, Output } from '../lib/cli/render.js';
import { openBrowser } from '../lib/core/browser.js';
import { loadProfile, setCredentials, type Env } from '../lib/core/config.js';
import type { OperationClient } from '../lib/core/client.js';
import { checkCleartext, isLoopbackHost } from '../lib/core/endpoint.js';
import { CdpError } from '../lib/core/errors.js';
import {
  DEFAULT_LOGIN_TIMEOUT_S,
  awaitDeviceKey,
  browserLogin,
  consoleAddress,
  interrupted,
  loginError,
  newLoginState,
  requestDeviceCode,
  signInAddress,
  type ReceivedKey,
} from '../lib/core/login.js';
import { parsePrivateKey } from '../lib/core/signing.js';
import { whoAmI, type Identity } from '../lib/core/whoami.js';
import { loadService } from '../lib/model/index.js';

export default class Login extends BaseCommand<typeof Login> {
  static summary = 'Sign in through the CDP console and save a new access key to a profile.';
  static description = [
    'Opens the console sign-in page in your browser ($BROWSER when set, else the system opener); after you sign in, the console sends a new access key back to cdpctl, which saves it to the profile in ~/.cdp/credentials (other profiles stay, mode 0600). When no browser can be opened, the address is printed to open by hand.',
    'With --use-device-code there is no browser on this machine to involve: cdpctl prints an address and a code to enter in a browser anywhere (for SSH sessions).',
    "The account comes from --account-id or the profile's account_id, the identity provider from --identity-provider or identity_provider, the console from the profile's login_url / device_login_url or the region. The profile \"emulator\" that `cdpctl emulator start` writes signs in on the emulator's own console pages.",
    "Only the console's answer to this sign-in is taken (it carries back the random state cdpctl sent), and the key is saved only once it has signed a call as a user of the account asked for, at the profile's endpoint (or --endpoint-url); any other key fails the sign-in with nothing written (exit 3), and the browser page and the terminal say why. A console on this machine (an emulator's, by --login-url) is its own control plane: when no endpoint is named, the key is checked there.",
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

  protected async execute(ctx: RunContext, { flags }: ParsedLine<typeof Login>): Promise<Output> {
    const env = ctx.env;
    const io = ctx.io;
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
    const state = newLoginState();
    const url = signInAddress(base, {
      accountId: flags['account-id'] ?? config.account_id,
      identityProvider: flags['identity-provider'] ?? config.identity_provider,
      clientId,
      state,
    });
    // The account as the console is asked for it (an account in --login-url wins, as in cdp).
    const accountId = url.searchParams.get('accountId') ?? '';
    // The console sends a private key back: not over plain HTTP from another machine unless that is wanted.
    const cleartext = { allowed: Boolean(flags['no-verify-tls']) || config.allow_http === 'true', warn: (line: string) => io.warn(line) };
    checkCleartext(url, cleartext);

    const abort = new AbortController();
    const stopListening = ctx.onInterrupt(() => abort.abort());
    let stopSpinner: ((result: string) => void) | undefined;
    let who: Identity | undefined;
    const checkAt = endpointOfConsole(url, flags['endpoint-url'], config);
    const save = async (key: ReceivedKey): Promise<void> => {
      // A key cdpctl could not sign with is refused before it is written anywhere.
      parsePrivateKey(key.accessKeyId, key.privateKey);
      // And so is one that does not sign as a user of the account asked for: a key planted by someone else.
      who = await checkReceivedKey(ctx, profile, key, accountId, checkAt);
      if (abort.signal.aborted) throw interrupted();
      await setCredentials(profile, key.accessKeyId, key.privateKey, env);
    };
    let key: ReceivedKey;
    let said: string | undefined;
    try {
      if (device && clientId) {
        const http = ctx.transport({ verifyTls: !flags['no-verify-tls'], caBundle: flags['ca-bundle'] });
        try {
          const code = await requestDeviceCode(http, url);
          checkCleartext(new URL(code.accessKeyUrl), cleartext);
          // The official CLI's words, on stdout as there.
          await io.write(
            `To sign in, use a web browser to open the page ${code.verificationUrl} and enter the code ${code.userCode} to authenticate.\n`,
          );
          stopSpinner = startSpinner(
            io,
            `Waiting for the code to be entered (it expires in ${minutes(code.expiresInS)}; Ctrl-C to cancel)`,
            ctx.clock,
          );
          key = await awaitDeviceKey(http, code, clientId, { signal: abort.signal, state });
          await save(key);
          stopSpinner('done');
          said = 'Device login is successful.\n';
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
          state,
          onForeignAnswer: () => io.warn('refused an answer at the sign-in listener that does not belong to this sign-in; still waiting'),
          onListening: async (full) => {
            const showAddress = (): void => {
              const restart = Boolean(stopSpinner);
              stopSpinner?.('no browser');
              io.info(`Could not open a web browser. To sign in, open this address in one:\n\n  ${full.href}\n`);
              if (restart) stopSpinner = startSpinner(io, 'Waiting for you to sign in (Ctrl-C to cancel)', ctx.clock);
            };
            const opened = await openBrowser(full.href, { env, onFailure: showAddress });
            if (opened.started) io.info('Opened the sign-in page in your web browser.');
            stopSpinner = startSpinner(io, 'Waiting for you to sign in (Ctrl-C to cancel)', ctx.clock);
          },
        });
        stopSpinner?.('done');
      }
    } catch (err) {
      stopSpinner?.(err instanceof CdpError && err.kind === 'interrupted' ? 'cancelled' : 'failed');
      throw err;
    } finally {
      stopListening();
    }
    const notes: Note[] = [];
    if (env.CDP_ACCESS_KEY_ID && env.CDP_PRIVATE_KEY) {
      notes.push({ warn: 'CDP_ACCESS_KEY_ID and CDP_PRIVATE_KEY are set: commands use them rather than the key just saved.' });
    }
    if (who)
      notes.push({
        info: `Signed in as ${who.name} (${roleOf(who)}) in account ${who.accountId}; the access key ${key.accessKeyId} is saved in profile "${profile}".`,
      });
    if (checkAt)
      notes.push({
        warn: `profile "${profile}" names no endpoint, so its commands go to the region's control plane, not to ${checkAt}; to use it there: cdpctl configure set endpoint_url ${checkAt} --profile ${profile} (and cdp_endpoint_url)`,
      });
    return said === undefined ? { kind: 'nothing', notes } : { kind: 'text', text: said, notes };
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

/** Where the client's iam calls go, to name in a message. */
async function iamEndpoint(client: OperationClient): Promise<string> {
  try {
    return client.baseUrl((await loadService('iam')).def.facts);
  } catch {
    return "the profile's endpoint";
  }
}

const roleOf = (who: Identity): string => (who.kind === 'machineUser' ? 'machine user' : who.accountAdmin ? 'user, account admin' : 'user');

/**
 * Where to check a received key when that is not where the profile's iam
 * calls go: a console on this machine (an emulator's) is its own control
 * plane, so when neither --endpoint-url nor the profile names an endpoint,
 * the key is checked there rather than at the region's host, which never
 * issued it.
 */
function endpointOfConsole(signIn: URL, endpointUrl: string | undefined, config: Readonly<Record<string, string>>): string | undefined {
  if (endpointUrl || config.endpoint_url || config.cdp_endpoint_url) return undefined;
  return isLoopbackHost(signIn.hostname) ? `${signIn.origin}/` : undefined;
}

/**
 * Who a received key signs as (one iam getUser signed with it, at the
 * profile's endpoint or `endpointUrl`), which must be a user of the account
 * the sign-in asked for; anything else fails the login before the key is
 * saved (exit 3), saying why and where it was checked.
 */
async function checkReceivedKey(
  ctx: RunContext,
  profile: string,
  key: ReceivedKey,
  accountId: string,
  endpointUrl: string | undefined,
): Promise<Identity> {
  // Signed with the received key alone (never a bearer token given for other calls).
  const client = ctx.client({ profile, credentials: key, accessToken: undefined, ...(endpointUrl ? { endpointUrl } : {}) });
  let who: Identity;
  try {
    who = await whoAmI(client);
  } catch (err) {
    const at = await iamEndpoint(client);
    throw loginError(
      'LOGIN_FAILED',
      `the access key ${key.accessKeyId} the console sent could not be checked at ${at}, so it was not saved: ${err instanceof Error ? err.message : String(err)}`,
      [
        `The key is checked with iam getUser at the profile's endpoint (--endpoint-url, else endpoint_url of profile "${profile}", else the region's): it must be the control plane whose console signed you in.`,
      ],
    );
  } finally {
    client.close();
  }
  if (who.kind !== 'user' || who.accountId !== accountId) {
    throw loginError(
      'LOGIN_FAILED',
      `the access key ${key.accessKeyId} the console sent signs as ${who.crn || 'nobody known'}, not as a user of account ${accountId}; it was not saved`,
      ['Someone else may have sent a key to this sign-in. Run the command again.'],
    );
  }
  return who;
}
