/**
 * Credentials, proxy configurations and audit credentials (the table's
 * `credential`, `proxyConfig` and `auditCredential` records). Secrets (an
 * Azure app's secret, a GCP key, a proxy's password) go to the cloud, never
 * into a record. An audit credential archives the account's audit events to
 * its cloud storage, one per cloud (AWS, AWS GovCloud, Azure, GCP), named
 * after its cloud: setting one creates it, or updates the one of that cloud
 * in place (same name and CRN).
 */
import { createHash } from 'node:crypto';
import type { Hook } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { failedPrecondition, invalid } from '../../errors.js';
import type { Doc } from '../../types.js';
import { bool, compact, obj, str, text } from '../../values.js';
import { allEnvironments, type R } from './backend.js';
import { selfSignedCertificate } from './identity.js';
import type { CloudPlatform, CredentialRec } from './records.js';

/** The cloud each credential create and audit credential set is for, by its operation. */
const CLOUDS: Readonly<Record<string, { platform: CloudPlatform; gov: boolean }>> = {
  createAWSCredential: { platform: 'AWS', gov: false },
  createAWSGovCloudCredential: { platform: 'AWS', gov: true },
  createAzureCredential: { platform: 'AZURE', gov: false },
  createGCPCredential: { platform: 'GCP', gov: false },
  setAWSAuditCredential: { platform: 'AWS', gov: false },
  setAWSGovCloudAuditCredential: { platform: 'AWS', gov: true },
  setAzureAuditCredential: { platform: 'AZURE', gov: false },
  setGCPAuditCredential: { platform: 'GCP', gov: false },
};

const cloudOf = (h: Hook<R>): { platform: CloudPlatform; gov: boolean } => CLOUDS[h.ctx.op.name] ?? { platform: 'AWS', gov: false };

/** The kind of a GCP service account key (the key itself is never kept): JSON, or else P12. */
function gcpKeyType(base64Key: string): 'JSON' | 'P12' {
  try {
    JSON.parse(Buffer.from(base64Key, 'base64').toString('utf8'));
    return 'JSON';
  } catch {
    return 'P12';
  }
}

/** An IAM role ARN of the partition (INVALID_ARGUMENT else), and the role's name. */
function roleOf(roleArn: string, gov: boolean): string {
  const partition = gov ? 'aws-us-gov' : 'aws';
  const arn = new RegExp(`^arn:${partition}:iam::\\d{12}:role/(.+)$`).exec(roleArn);
  if (!arn) throw invalid(`${roleArn.slice(0, 200)} is not an IAM role ARN of the ${partition} partition`);
  return arn[1] ?? '';
}

// ---- credentials ----------------------------------------------------------------------

/** What a create request makes of a credential: its cloud and that cloud's properties, never its secrets. */
export function credentialFields(h: Hook<R>, _rec: Readonly<EngineRecord>, req: Doc): Doc {
  const { platform: cloudPlatform, gov: govCloud } = cloudOf(h);
  if (cloudPlatform === 'GCP') return { cloudPlatform, gcpCredentialProperties: { keyType: gcpKeyType(text(req.credentialKey)) } };
  if (cloudPlatform === 'AWS') return { cloudPlatform, awsCredentialProperties: { roleArn: text(req.roleArn), govCloud } };
  const app = obj(req.appBased);
  return {
    cloudPlatform,
    azureCredentialProperties: compact({
      subscriptionId: str(req.subscriptionId),
      tenantId: str(req.tenantId),
      appId: str(app.applicationId),
      authenticationType: str(app.authenticationType) ?? 'SECRET',
    }),
  };
}

/** Records of a resource that the request's field names (a name in any case, or a CRN); all of them when it names none. */
const namedBy =
  (resource: R, field: string) =>
  (h: Hook<R>, req: Doc): EngineRecord[] => {
    const ref = str(req[field]);
    const all = h.records(resource).all('');
    return ref ? all.filter((p) => p.name?.toLowerCase() === ref.toLowerCase() || p.crn === ref) : all;
  };

export const credentialsNamed = namedBy('credential', 'credentialName');
export const proxiesNamed = namedBy('proxyConfig', 'proxyConfigName');

/** Refuses deleting a record that environments use (their field `field` names it); `hint` tells what to do. */
const unusedBy =
  (field: 'credentialName' | 'proxyConfigName', noun: string, hint: string) =>
  (h: Hook<R>, rec: Readonly<EngineRecord>): void => {
    const using = allEnvironments(h).filter((e) => e[field] === rec.name);
    if (using.length > 0)
      throw failedPrecondition(`${noun} ${nameOf(rec)} is used by environment ${using.map((e) => e.environmentName).join(', ')}; ${hint}`);
  };

export const credentialInUse = unusedBy('credentialName', 'credential', 'change their credential or delete them first');
export const proxyInUse = unusedBy('proxyConfigName', 'proxy configuration', 'remove it from them first');

/** The credential an update names, of the cloud the update is for. */
function updated(h: Hook<R>, sent: Doc, platform: CloudPlatform): CredentialRec {
  const c = h.locate('credential', sent).doc as unknown as CredentialRec;
  if (c.cloudPlatform !== platform || (platform === 'AWS' && !c.awsCredentialProperties))
    throw invalid(`credential ${c.credentialName} is an ${c.cloudPlatform} credential; update it with its own cloud's command`);
  return c;
}

/** An AWS credential update: another role of its partition; `fail-` role names cannot be assumed when permissions are verified. */
export function awsCredentialChange(h: Hook<R>, sent: Doc): Doc {
  const props = updated(h, sent, 'AWS').awsCredentialProperties;
  const roleArn = text(sent.roleArn);
  const role = roleOf(roleArn, props?.govCloud === true);
  const verifyPermissions = bool(sent.verifyPermissions);
  if (verifyPermissions && /(^|\/)fail-/.test(role))
    throw failedPrecondition(
      `the control plane could not assume ${roleArn} (a role named fail-... fails on purpose); the credential is unchanged`,
    );
  return {
    credentialName: sent.credentialName,
    description: sent.description,
    skipOrgPolicyDecisions: bool(sent.skipOrgPolicyDecisions),
    verifyPermissions,
    awsCredentialProperties: { ...props, roleArn },
  };
}

/** An Azure credential update: its subscription, tenant or app; a certificate-based one gets a new certificate. */
export function azureCredentialChange(h: Hook<R>, sent: Doc): Doc {
  const c = updated(h, sent, 'AZURE');
  const app = obj(sent.appBased);
  const tenantId = text(sent.tenantId);
  const type = str(app.authenticationType) ?? c.azureCredentialProperties?.authenticationType ?? 'SECRET';
  const certificate =
    type === 'CERTIFICATE'
      ? selfSignedCertificate({ commonName: c.credentialName, organization: tenantId }, h.ctx.clock.now(), 1)
      : undefined;
  return {
    credentialName: sent.credentialName,
    description: sent.description,
    azureCredentialProperties: compact({
      subscriptionId: text(sent.subscriptionId),
      tenantId,
      appId: str(app.applicationId) ?? c.azureCredentialProperties?.appId,
      authenticationType: type,
      certificate: certificate && {
        status: 'ACTIVE',
        expirationDate: new Date(certificate.notAfter).toISOString(),
        sha512: createHash('sha512').update(certificate.der).digest('hex'),
        base64: certificate.der.toString('base64'),
      },
    }),
  };
}

/** A proxy configuration's password goes to the cloud, never into its record. */
export const withoutPassword = (_h: Hook<R>, { password: _password, ...rest }: Doc): Doc => rest;

// ---- audit credentials ----------------------------------------------------------------

/** What a set request makes of the audit credential: its cloud's properties (checked), never its secrets. */
export function auditCredentialFields(h: Hook<R>, _rec: Readonly<EngineRecord>, req: Doc): Doc {
  const { platform, gov } = cloudOf(h);
  const app = obj(req.appBased);
  if (platform === 'AZURE' && !str(app.applicationId))
    throw invalid('give the app registration: --app-based applicationId=...,secretKey=...');
  if (platform === 'AWS') roleOf(text(req.roleArn), gov);
  return {
    cloudPlatform: platform,
    description: `Archives the audit events of the account to ${gov ? 'AWS GovCloud' : platform} storage`,
    ...(platform === 'AWS'
      ? { awsCredentialProperties: { roleArn: text(req.roleArn), govCloud: gov } }
      : platform === 'AZURE'
        ? {
            azureCredentialProperties: {
              subscriptionId: text(req.subscriptionId),
              tenantId: text(req.tenantId),
              appId: text(app.applicationId),
              authenticationType: 'SECRET',
            },
          }
        : { gcpCredentialProperties: { keyType: gcpKeyType(text(req.credentialKey)) } }),
  };
}

/**
 * The request a set reads: the credential of its cloud by name (a set of one
 * the account has changes it in place: the resource's names replace), the
 * app's secret left out (the GCP key, a secret of the request, is not kept either).
 */
export function auditCredentialRequest(h: Hook<R>, sent: Doc): Doc {
  const { platform, gov } = cloudOf(h);
  const app = sent.appBased === undefined ? {} : { appBased: { applicationId: obj(sent.appBased).applicationId } };
  return { ...sent, credentialName: `${gov ? 'aws-gov' : platform.toLowerCase()}-audit-credential`, ...app };
}
