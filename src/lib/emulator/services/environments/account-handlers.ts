/**
 * environments operations of the account: telemetry, Azure image terms,
 * settings, credential prerequisites and updates, and the checks users run
 * before registering things. Unpack, call the account part, answer.
 */
import type { Doc } from '../../types.js';
import type { EnvironmentsBackend } from './backend.js';
import { docs, num, str, stringMap, strings, text } from '../../values.js';

import { anonymize, compile } from './account.js';
import type { Hook } from '../../engine/declare.js';
import type { R } from './backend.js';
import { TELEMETRY_DEFAULTS } from './catalogue.js';
import type { AnonymizationRule } from './records.js';

const rulesOf = (v: unknown): AnonymizationRule[] =>
  docs(v).map((r) => ({ value: text(r.value), replacement: str(r.replacement) ?? '[REDACTED]' }));

/**
 * The account's telemetry settings and its Azure Marketplace image terms
 * switch: one record each per account (the table's `accountTelemetry` and
 * `azureImageTerms`, `perAccount`), read as these defaults until first set.
 */
export const telemetryDefaults = (): Doc => ({ ...TELEMETRY_DEFAULTS, rules: [...TELEMETRY_DEFAULTS.rules] });
export const imageTermsDefaults = (): Doc => ({ accepted: false });

/** A telemetry change: each rule a regular expression (INVALID_ARGUMENT naming one that is not), one without a replacement redacting. */
export function telemetryChange(_h: Hook<R>, sent: Doc): Doc {
  if (!Array.isArray(sent.rules)) return sent;
  const rules = rulesOf(sent.rules);
  rules.forEach(compile);
  return { ...sent, rules };
}

export const testAccountTelemetryRules = (_b: EnvironmentsBackend, req: Doc): Doc => ({
  output: anonymize(text(req.testInput), rulesOf(req.rules)),
});

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
