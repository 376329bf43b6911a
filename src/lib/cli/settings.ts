/**
 * The profile settings `configure` knows: which file each belongs in, what
 * it is, and how a value is checked before it is written. A name that is not
 * one of them is refused (with the nearest one), so a typo never lands in
 * the files; the official CLI's own keys are among them, so files shared
 * with it keep working.
 */
import { REGIONS } from '../core/endpoint.js';
import { usageError } from '../core/errors.js';
import { parsePrivateKey } from '../core/signing.js';
import { suggest } from '../core/validate.js';
import { OUTPUT_FORMATS } from './output.js';

export interface Setting {
  readonly file: 'credentials' | 'config';
  readonly about: string;
  /** Why a value is not good, or undefined. */
  readonly check?: (value: string) => string | undefined;
  /** Shown masked. */
  readonly secret?: boolean;
}

/** A credential as `cdp configure list` shows it: sixteen stars and its last four characters. */
export const masked = (value: string): string => `${'*'.repeat(16)}${value.slice(-4)}`;

const oneOf =
  (values: readonly string[]) =>
  (v: string): string | undefined =>
    values.includes(v) ? undefined : `must be one of ${values.join(', ')}${suggest(v, values)}`;

/** An http(s) URL; `%s` (filled in per service, as the official CLI does) is allowed. */
function url(v: string): string | undefined {
  try {
    const u = new URL(v.replace(/%s/g, 'x'));
    return u.protocol === 'http:' || u.protocol === 'https:' ? undefined : 'must be an http:// or https:// URL';
  } catch {
    return 'must be an http:// or https:// URL';
  }
}

function privateKey(v: string): string | undefined {
  try {
    parsePrivateKey('the key', v);
    return undefined;
  } catch {
    return 'is not a private key cdpctl can sign with (a 44-character Ed25519 key, or a PKCS#8 PEM key)';
  }
}

export const SETTINGS: Readonly<Record<string, Setting>> = {
  cdp_access_key_id: { file: 'credentials', about: 'access key ID' },
  cdp_private_key: { file: 'credentials', about: 'private key of the access key', check: privateKey, secret: true },
  cdp_access_token: { file: 'credentials', about: 'bearer token sent instead of signing', secret: true },
  cdp_region: { file: 'config', about: 'region of the default endpoints', check: oneOf(['default', ...REGIONS]) },
  cdp_endpoint_url: { file: 'config', about: 'endpoint of every service but iam', check: url },
  endpoint_url: { file: 'config', about: 'endpoint of iam', check: url },
  form_factor: { file: 'config', about: 'public or private cloud', check: oneOf(['public', 'private']) },
  output: { file: 'config', about: 'default output format', check: oneOf(OUTPUT_FORMATS) },
  ca_bundle: { file: 'config', about: 'certificate authorities to trust (read by the official CLI)' },
  request_headers: { file: 'config', about: 'extra request headers (read by the official CLI)' },
  account_id: { file: 'config', about: 'account to sign in to with login' },
  identity_provider: { file: 'config', about: 'identity provider to sign in with' },
  login_url: { file: 'config', about: 'console sign-in page for login', check: url },
  device_login_url: { file: 'config', about: 'console device sign-in page for login --use-device-code', check: url },
  allow_http: {
    file: 'config',
    about: 'true: allow plain http:// endpoints on other machines (clear text; warned each time)',
    check: oneOf(['true', 'false']),
  },
};

export const SETTING_NAMES = Object.keys(SETTINGS);

/** The setting a name is, or a usage error naming the nearest known one. */
export function settingFor(key: string): Setting {
  const s = Object.hasOwn(SETTINGS, key) ? SETTINGS[key] : undefined;
  if (s) return s;
  throw usageError(`"${key}" is not a setting${suggest(key, SETTING_NAMES)}; nothing was written`, [
    `Known settings: ${SETTING_NAMES.join(', ')}.`,
  ]);
}

/** Refuses a value the setting cannot take, before anything is written. */
export function checkSetting(key: string, value: string): void {
  const problem = value === '' ? undefined : settingFor(key).check?.(value);
  if (problem) throw usageError(`${key} ${problem}; nothing was written`);
}
