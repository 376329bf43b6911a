/**
 * environments operations of the account: telemetry, Azure image terms,
 * settings, credential prerequisites and updates, and the checks users run
 * before registering things. Unpack, call the account part, answer.
 */
import type { Doc, Handler } from '../../types.js';
import { bool, docs, num, obj, optBool, str, stringMap, strings, text } from '../../values.js';
import { TELEMETRY_DEFAULTS } from './catalogue.js';
import { anonymize } from './account.js';
import { op } from './handlers.js';
import type { AnonymizationRule } from './records.js';
import { credentialView } from './views.js';

const rulesOf = (v: unknown): AnonymizationRule[] =>
  docs(v).map((r) => ({ value: text(r.value), replacement: str(r.replacement) ?? '[REDACTED]' }));

const telemetryView = (t: { workloadAnalytics: boolean; reportDeploymentLogs: boolean; rules: readonly AnonymizationRule[] }): Doc => ({
  workloadAnalytics: t.workloadAnalytics,
  reportDeploymentLogs: t.reportDeploymentLogs,
  rules: t.rules.map((r) => ({ ...r })),
});

export const accountHandlers: Record<string, Handler> = {
  // telemetry
  getAccountTelemetry: op((b) => telemetryView(b.account.telemetry())),
  getAccountTelemetryDefault: op(() => telemetryView(TELEMETRY_DEFAULTS)),
  setAccountTelemetry: op((b, req) =>
    telemetryView(
      b.account.setTelemetry({
        workloadAnalytics: optBool(req.workloadAnalytics),
        reportDeploymentLogs: optBool(req.reportDeploymentLogs),
        ...(Array.isArray(req.rules) ? { rules: rulesOf(req.rules) } : {}),
      }),
    ),
  ),
  testAccountTelemetryRules: op((_b, req) => ({ output: anonymize(text(req.testInput), rulesOf(req.rules)) })),

  // Azure Marketplace image terms
  getAzureImageTermsPolicy: op((b) => ({ accepted: b.account.azureImageTermsAccepted() })),
  updateAzureImageTermsPolicy: op((b, req) => {
    b.account.setAzureImageTerms(bool(req.accepted));
    return {};
  }),

  // settings
  getEnvironmentSetting: op((b, req) => ({ settings: b.account.settings(strings(req.attrs), str(req.environmentName)) })),
  setEnvironmentSetting: op((b, req) => {
    b.account.setSettings(stringMap(req.settings), str(req.environmentName));
    return {};
  }),

  // credentials
  getCredentialPrerequisites: op((b, req) => b.account.credentialPrerequisites(text(req.cloudPlatform), false)),
  getGovCloudCredentialPrerequisites: op((b, req) => {
    const { cloudPlatform: _platform, ...rest } = b.account.credentialPrerequisites(text(req.cloudPlatform), true);
    return rest;
  }),
  getAuditCredentialPrerequisites: op((b, req) => b.account.auditPrerequisites(text(req.cloudPlatform), false)),
  getGovCloudAuditCredentialPrerequisites: op((b, req) => {
    const { cloudPlatform: _platform, ...rest } = b.account.auditPrerequisites(text(req.cloudPlatform), true);
    return rest;
  }),
  updateAwsCredential: op((b, req) => ({
    credential: credentialView(
      b.updateAwsCredential(text(req.credentialName), {
        roleArn: text(req.roleArn),
        description: str(req.description),
        skipOrgPolicyDecisions: bool(req.skipOrgPolicyDecisions),
        verifyPermissions: bool(req.verifyPermissions),
      }),
    ),
  })),
  updateAzureCredential: op((b, req) => {
    const app = obj(req.appBased);
    return {
      credential: credentialView(
        b.updateAzureCredential(text(req.credentialName), {
          subscriptionId: text(req.subscriptionId),
          tenantId: text(req.tenantId),
          appId: str(app.applicationId),
          authenticationType: str(app.authenticationType),
          description: str(req.description),
        }),
      ),
    };
  }),

  // checks
  checkEnvironmentConnectivity: op((b, req) => ({
    clusters: b.account.checkClouderaManager(text(req.address), strings(req.clusterNames)),
  })),
  checkDatabaseConnectivity: op((b, req) =>
    b.account.checkDatabase(text(req.host), num(req.port) ?? 0, text(req.name), text(req.username)),
  ),
  checkKubernetesConnectivity: op((b, req) => b.account.checkKubernetes(text(req.kubeConfig))),
  validateAwsCloudStorage: op((b, req) =>
    b.account.validateAwsStorage(text(req.credentialCrn), text(req.storageLocation), text(req.instanceProfile)),
  ),
  validateAzureCloudStorage: op((b, req) =>
    b.account.validateAzureStorage(text(req.credentialCrn), text(req.storageLocation), {
      managedIdentity: str(req.managedIdentity),
      accountKey: str(req.accountKey),
      accountName: str(req.accountName),
    }),
  ),
};
