/**
 * environments operations of the account: telemetry, Azure image terms,
 * settings, credential prerequisites and updates, and the checks users run
 * before registering things. Unpack, call the account part, answer.
 */
import type { Doc } from '../../types.js';
import type { EnvironmentsBackend } from './backend.js';
import { bool, docs, num, optBool, str, stringMap, strings, text } from '../../values.js';

import { anonymize } from './account.js';
import type { AnonymizationRule } from './records.js';

const rulesOf = (v: unknown): AnonymizationRule[] =>
  docs(v).map((r) => ({ value: text(r.value), replacement: str(r.replacement) ?? '[REDACTED]' }));

export const telemetryView = (t: {
  workloadAnalytics: boolean;
  reportDeploymentLogs: boolean;
  rules: readonly AnonymizationRule[];
}): Doc => ({
  workloadAnalytics: t.workloadAnalytics,
  reportDeploymentLogs: t.reportDeploymentLogs,
  rules: t.rules.map((r) => ({ ...r })),
});
// telemetry
export const getAccountTelemetry = (b: EnvironmentsBackend): Doc => telemetryView(b.account.telemetry());

export const setAccountTelemetry = (b: EnvironmentsBackend, req: Doc): Doc =>
  telemetryView(
    b.account.setTelemetry({
      workloadAnalytics: optBool(req.workloadAnalytics),
      reportDeploymentLogs: optBool(req.reportDeploymentLogs),
      ...(Array.isArray(req.rules) ? { rules: rulesOf(req.rules) } : {}),
    }),
  );

export const testAccountTelemetryRules = (_b: EnvironmentsBackend, req: Doc): Doc => ({
  output: anonymize(text(req.testInput), rulesOf(req.rules)),
});

// Azure Marketplace image terms
export const getAzureImageTermsPolicy = (b: EnvironmentsBackend): Doc => ({ accepted: b.account.azureImageTermsAccepted() });

export const updateAzureImageTermsPolicy = (b: EnvironmentsBackend, req: Doc): Doc => {
  b.account.setAzureImageTerms(bool(req.accepted));
  return {};
};

// settings
export const getEnvironmentSetting = (b: EnvironmentsBackend, req: Doc): Doc => ({
  settings: b.account.settings(strings(req.attrs), str(req.environmentName)),
});

export const setEnvironmentSetting = (b: EnvironmentsBackend, req: Doc): Doc => {
  b.account.setSettings(stringMap(req.settings), str(req.environmentName));
  return {};
};

// credentials
export const getCredentialPrerequisites = (b: EnvironmentsBackend, req: Doc): Doc =>
  b.account.credentialPrerequisites(text(req.cloudPlatform), false);

export const getGovCloudCredentialPrerequisites = (b: EnvironmentsBackend, req: Doc): Doc => {
  const { cloudPlatform: _platform, ...rest } = b.account.credentialPrerequisites(text(req.cloudPlatform), true);
  return rest;
};

export const getAuditCredentialPrerequisites = (b: EnvironmentsBackend, req: Doc): Doc =>
  b.account.auditPrerequisites(text(req.cloudPlatform), false);

export const getGovCloudAuditCredentialPrerequisites = (b: EnvironmentsBackend, req: Doc): Doc => {
  const { cloudPlatform: _platform, ...rest } = b.account.auditPrerequisites(text(req.cloudPlatform), true);
  return rest;
};

// checks
export const checkEnvironmentConnectivity = (b: EnvironmentsBackend, req: Doc): Doc => ({
  clusters: b.account.checkClouderaManager(text(req.address), strings(req.clusterNames)),
});

export const checkDatabaseConnectivity = (b: EnvironmentsBackend, req: Doc): Doc =>
  b.account.checkDatabase(text(req.host), num(req.port) ?? 0, text(req.name), text(req.username));

export const checkKubernetesConnectivity = (b: EnvironmentsBackend, req: Doc): Doc => b.account.checkKubernetes(text(req.kubeConfig));

export const validateAwsCloudStorage = (b: EnvironmentsBackend, req: Doc): Doc =>
  b.account.validateAwsStorage(text(req.credentialCrn), text(req.storageLocation), text(req.instanceProfile));

export const validateAzureCloudStorage = (b: EnvironmentsBackend, req: Doc): Doc =>
  b.account.validateAzureStorage(text(req.credentialCrn), text(req.storageLocation), {
    managedIdentity: str(req.managedIdentity),
    accountKey: str(req.accountKey),
    accountName: str(req.accountName),
  });
