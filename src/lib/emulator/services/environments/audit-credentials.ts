/**
 * Audit credentials, on the resource engine: the credential that archives
 * the account's audit events to its cloud storage, one per cloud (AWS, AWS
 * GovCloud, Azure, GCP). Setting one creates it, or updates the one of that
 * cloud in place (same name and CRN); list and delete are the engine's.
 * Secrets (an Azure app's secret, a GCP key) are never kept.
 */
import { resources } from '../../../model/services/environments/resources.js';
import type { CloudPlatform } from '../../environments.js';
import type { ResourceSpec } from '../../engine/index.js';
import { invalid } from '../../errors.js';
import { obj, str, text } from '../../values.js';
import { gcpKeyType } from './credentials.js';

const CLOUD_OF: Readonly<Record<string, { platform: CloudPlatform; gov: boolean }>> = {
  setAWSAuditCredential: { platform: 'AWS', gov: false },
  setAWSGovCloudAuditCredential: { platform: 'AWS', gov: true },
  setAzureAuditCredential: { platform: 'AZURE', gov: false },
  setGCPAuditCredential: { platform: 'GCP', gov: false },
};

export const AUDIT_CREDENTIAL: ResourceSpec = {
  noun: 'audit credential',
  shape: 'Credential',
  // A credential, as the model's facts say: `credential` in its CRNs (the engine's default, its key, is no CRN type).
  crnType: resources.resources.auditCredential.crnType,
  keys: ['credentialName'],
  ops: {
    setAWSAuditCredential: 'create',
    setAWSGovCloudAuditCredential: 'create',
    setAzureAuditCredential: 'create',
    setGCPAuditCredential: 'create',
  },
  hooks: {
    creating: (h, rec, req) => {
      const cloud = CLOUD_OF[h.ctx.op.name] ?? { platform: 'AWS', gov: false };
      const name = `${cloud.gov ? 'aws-gov' : cloud.platform.toLowerCase()}-audit-credential`;
      const same = h.resources('auditCredential').find(name, '');
      if (same) {
        rec.id = same.id;
        if (same.crn) rec.crn = same.crn;
      }
      rec.name = name;
      const props: Record<string, unknown> = {};
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
        // The app's secret goes to the cloud, never into the record.
        const kept = obj(rec.data?.request);
        rec.data = { request: { ...kept, appBased: { applicationId: app.applicationId } } };
      } else props.gcpCredentialProperties = { keyType: gcpKeyType(text(req.credentialKey)) };
      rec.doc = {
        ...rec.doc,
        credentialName: name,
        crn: rec.crn,
        cloudPlatform: cloud.platform,
        created: same?.doc.created ?? rec.doc.created,
        description: `Archives the audit events of the account to ${cloud.gov ? 'AWS GovCloud' : cloud.platform} storage`,
        ...props,
      };
    },
  },
};
