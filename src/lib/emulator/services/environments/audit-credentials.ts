/**
 * Audit credentials: the credential that archives the account's audit
 * events to its cloud storage, one per cloud (AWS, AWS GovCloud, Azure,
 * GCP), named after its cloud. Setting one creates it, or updates the one of
 * that cloud in place (same name and CRN); all four are the engine's verbs.
 * Secrets (an Azure app's secret, a GCP key) are never kept.
 */
import type { CloudPlatform } from './records.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { invalid } from '../../errors.js';
import type { Doc } from '../../types.js';
import { obj, str, text } from '../../values.js';
import type { R } from './backend.js';
import { gcpKeyType } from './credentials.js';

const CLOUD_OF: Readonly<Record<string, { platform: CloudPlatform; gov: boolean }>> = {
  setAWSAuditCredential: { platform: 'AWS', gov: false },
  setAWSGovCloudAuditCredential: { platform: 'AWS', gov: true },
  setAzureAuditCredential: { platform: 'AZURE', gov: false },
  setGCPAuditCredential: { platform: 'GCP', gov: false },
};

const cloudOf = (h: Hook<R>): { platform: CloudPlatform; gov: boolean } => CLOUD_OF[h.ctx.op.name] ?? { platform: 'AWS', gov: false };

/** The name of the audit credential of the cloud a set operation is for. */
const nameOf = (h: Hook<R>): string => {
  const cloud = cloudOf(h);
  return `${cloud.gov ? 'aws-gov' : cloud.platform.toLowerCase()}-audit-credential`;
};

/** What a set request makes of the credential: its cloud's properties (checked), never its secrets. */
export function auditCredentialFields(h: Hook<R>, _rec: Readonly<EngineRecord>, req: Doc): Doc {
  const cloud = cloudOf(h);
  const props: Doc = {};
  if (cloud.platform === 'AWS') {
    const partition = cloud.gov ? 'aws-us-gov' : 'aws';
    const roleArn = text(req.roleArn);
    if (!new RegExp(`^arn:${partition}:iam::\\d{12}:role/.+$`).test(roleArn))
      throw invalid(`${roleArn.slice(0, 200)} is not an IAM role ARN of the ${partition} partition`);
    props.awsCredentialProperties = { roleArn, govCloud: cloud.gov };
  } else if (cloud.platform === 'AZURE') {
    const app = obj(req.appBased);
    if (!str(app.applicationId)) throw invalid('give the app registration: --app-based applicationId=...,secretKey=...');
    props.azureCredentialProperties = {
      subscriptionId: text(req.subscriptionId),
      tenantId: text(req.tenantId),
      appId: text(app.applicationId),
      authenticationType: 'SECRET',
    };
  } else props.gcpCredentialProperties = { keyType: gcpKeyType(text(req.credentialKey)) };
  return {
    cloudPlatform: cloud.platform,
    description: `Archives the audit events of the account to ${cloud.gov ? 'AWS GovCloud' : cloud.platform} storage`,
    ...props,
  };
}

/**
 * The request a set reads: the credential of its cloud by name (a set of one
 * the account has changes it in place: the resource's names replace), the
 * app's secret left out (it goes to the cloud, never into the record; the GCP
 * key, a secret of the request, is not kept either).
 */
export function auditCredentialRequest(h: Hook<R>, sent: Doc): Doc {
  const app = sent.appBased === undefined ? {} : { appBased: { applicationId: obj(sent.appBased).applicationId } };
  return { ...sent, credentialName: nameOf(h), ...app };
}
