/**
 * environments operations on credentials and proxy configurations (the
 * table's `credential` and `proxyConfig` records), and what an environment
 * hands out: a keytab, its root certificate, the data services connected
 * to it.
 */
import { createHash } from 'node:crypto';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { failedPrecondition, invalid } from '../../errors.js';
import type { Doc } from '../../types.js';
import { bool, compact, obj, str, text } from '../../values.js';
import { backendOf, type EnvironmentsBackend, type R } from './backend.js';
import { gcpKeyType, selfSignedCertificate } from './credentials.js';
import { ipaRequired } from './freeipa.js';
import { keytabOf, rootCertificateOf } from './identity.js';
import type { CloudPlatform, CredentialRec } from './records.js';

// credentials
/** The cloud a credential create is for, by its operation. */
const CREDENTIAL_CLOUD: Readonly<Record<string, CloudPlatform>> = { createAzureCredential: 'AZURE', createGCPCredential: 'GCP' };

/** What a create request makes of a credential: its cloud and that cloud's properties, never its secrets. */
export function credentialFields(h: Hook<R>, _rec: Readonly<EngineRecord>, req: Doc): Doc {
  const cloudPlatform = CREDENTIAL_CLOUD[h.ctx.op.name] ?? 'AWS';
  if (cloudPlatform === 'GCP') return { cloudPlatform, gcpCredentialProperties: { keyType: gcpKeyType(text(req.credentialKey)) } };
  if (cloudPlatform === 'AWS')
    return {
      cloudPlatform,
      awsCredentialProperties: { roleArn: text(req.roleArn), govCloud: h.ctx.op.name === 'createAWSGovCloudCredential' },
    };
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

/** The credentials, or those the request names. */
export const credentialsNamed = namedBy('credential', 'credentialName');

/** Refuses deleting a record that environments use (their field `field` names it); `hint` tells what to do. */
const unusedBy =
  (field: 'credentialName' | 'proxyConfigName', noun: string, hint: string) =>
  (h: Hook<R>, rec: Readonly<EngineRecord>): void => {
    const using = backendOf(h)
      .environments()
      .filter((e) => e[field] === rec.name);
    if (using.length > 0)
      throw failedPrecondition(
        `${noun} ${rec.name ?? rec.id} is used by environment ${using.map((e) => e.environmentName).join(', ')}; ${hint}`,
      );
  };

/** A credential an environment uses is not deleted. */
export const credentialInUse = unusedBy('credentialName', 'credential', 'change their credential or delete them first');

/** An AWS credential update: another role of its partition; `fail-` role names cannot be assumed when permissions are verified. */
export function awsCredentialChange(h: Hook<R>, sent: Doc): Doc {
  const c = h.locate('credential', sent).doc as unknown as CredentialRec;
  const props = c.awsCredentialProperties;
  if (c.cloudPlatform !== 'AWS' || !props)
    throw invalid(`credential ${c.credentialName} is an ${c.cloudPlatform} credential; update it with its own cloud's command`);
  const partition = props.govCloud ? 'aws-us-gov' : 'aws';
  const roleArn = text(sent.roleArn);
  const arn = new RegExp(`^arn:${partition}:iam::\\d{12}:role/(.+)$`).exec(roleArn);
  if (!arn) throw invalid(`${roleArn.slice(0, 200)} is not an IAM role ARN of the ${partition} partition`);
  const verifyPermissions = bool(sent.verifyPermissions);
  if (verifyPermissions && /(^|\/)fail-/.test(arn[1] ?? ''))
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
  const c = h.locate('credential', sent).doc as unknown as CredentialRec;
  if (c.cloudPlatform !== 'AZURE')
    throw invalid(`credential ${c.credentialName} is an ${c.cloudPlatform} credential; update it with its own cloud's command`);
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

// proxy configurations
/** A proxy configuration's password goes to the cloud, never into its record. */
export const withoutPassword = (_h: Hook<R>, { password: _password, ...rest }: Doc): Doc => rest;

/** The proxy configurations, or those the request names. */
export const proxiesNamed = namedBy('proxyConfig', 'proxyConfigName');

/** A proxy configuration an environment uses is not deleted. */
export const proxyInUse = unusedBy('proxyConfigName', 'proxy configuration', 'remove it from them first');

// what an environment hands out
export const keytab = (h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc): Doc => {
  const b = backendOf(h);
  const e = b.of(rec);
  ipaRequired(e);
  return { contents: keytabOf(h.ctx, e, str(req.actorCrn) ?? h.ctx.caller.actorCrn) };
};

/** Code: the certificate is made the first time it is asked for, and kept. */
export const getRootCertificate = (b: EnvironmentsBackend, req: Doc): Doc => {
  const e = b.environment(text(req.environmentName));
  ipaRequired(e);
  const cert = rootCertificateOf(e);
  if (cert.made) b.save(Object.assign(e, { rootCertificate: cert.pem }));
  return { contents: cert.pem };
};

/** What runs in an environment that is not a data service. */
const NOT_DATA_SERVICES = ['datalake', 'datahub', 'environments'];

export const connectedDataServices = (h: Hook<R>, rec: Readonly<EngineRecord>): Doc => {
  const byService = new Map<string, string[]>();
  for (const d of h.ctx.world.inEnvironment(h.ctx, rec.crn ?? ''))
    if (!NOT_DATA_SERVICES.includes(d.service)) byService.set(d.service, [...(byService.get(d.service) ?? []), d.name]);
  return { result: [...byService].map(([name, clusters]) => ({ name, clusters })) };
};
