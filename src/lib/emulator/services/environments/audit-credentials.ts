/**
 * Audit credentials: the credential that archives the account's audit
 * events to its cloud storage, one per cloud (AWS, AWS GovCloud, Azure,
 * GCP), named after its cloud. Setting one creates it, or updates the one of
 * that cloud in place (same name and CRN); list and delete are the engine's.
 * Secrets (an Azure app's secret, a GCP key) are never kept.
 */
import type { CloudPlatform } from '../../environments.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { verbs } from '../../engine/table.js';
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

/** Sets the audit credential of a cloud: a new one, or the one the account has, changed in place. */
export function setAuditCredential(h: Hook<R>, req: Doc): Doc {
  const name = nameOf(h);
  const all = h.records('auditCredential');
  const same = all.find(name, '');
  const answer = same
    ? { credential: all.view(all.save(Object.assign(same, { doc: { ...same.doc, ...auditCredentialFields(h, same, req) } }))) }
    : h.serve(verbs<R>('auditCredential').create({ rewrite: (_h, sent) => ({ ...sent, credentialName: name }) }), req);
  // The app's secret and the key go to the cloud, never into the record.
  const { appBased, credentialKey: _key, ...rest } = req;
  const made = all.get(name, '');
  made.data = { ...made.data, request: { ...rest, ...(appBased ? { appBased: { applicationId: obj(appBased).applicationId } } : {}) } };
  all.save(made);
  return answer;
}
