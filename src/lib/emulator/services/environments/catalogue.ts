/**
 * The environments service's fixed world: the FreeIPA image catalog, the
 * instance types FreeIPA starts with, the secrets FreeIPA can rotate and the
 * logs a diagnostics collection can take, account telemetry's defaults, and
 * what a cloud account needs before a credential (or audit credential) is
 * made: the policies, roles and commands the prerequisites answer with.
 */
import type { CloudPlatform } from './records.js';
import { stableUuid } from '../../ids.js';
import { b64 } from '../../values.js';

// ---- FreeIPA images -------------------------------------------------------------

export const FREEIPA_CATALOG = { name: 'cdp-default', url: 'https://images.cdp.emulator.invalid/freeipa-image-catalog.json' };

export interface FreeipaImage {
  readonly id: string;
  readonly os: string;
  readonly date: string;
  readonly imageName: string;
}

const image = (os: string, date: string): FreeipaImage => ({
  id: stableUuid(`freeipa-image/${os}/${date}`),
  os,
  date,
  imageName: `freeipa-${os}-${date}`,
});

/** Oldest first. */
export const FREEIPA_IMAGES: readonly FreeipaImage[] = [
  image('redhat7', '2024-03-12'),
  image('redhat8', '2025-06-03'),
  image('redhat8', '2025-11-18'),
  image('redhat8', '2026-02-24'),
  image('redhat9', '2026-05-05'),
];

/** The image a FreeIPA starts on when its environment asks for none. */
export const DEFAULT_FREEIPA_IMAGE = FREEIPA_IMAGES[1] as FreeipaImage;

/** Major OS versions in the order an upgrade may take them. */
export const OS_SERIES = ['redhat7', 'redhat8', 'redhat9'];

export const FREEIPA_INSTANCE_TYPE: Readonly<Record<CloudPlatform, string>> = {
  AWS: 'm5.large',
  AZURE: 'Standard_D2s_v3',
  GCP: 'e2-standard-2',
};

/** The availability zones of an Azure region. */
export const AZURE_ZONES = ['1', '2', '3'];

/** What an instance type of each cloud looks like. */
export const INSTANCE_TYPE_PATTERN: Readonly<Record<CloudPlatform, RegExp>> = {
  AWS: /^[a-z][a-z0-9-]*\.[a-z0-9]+$/,
  AZURE: /^(Standard|Basic)_[A-Za-z0-9_]+$/,
  GCP: /^[a-z][a-z0-9]*-[a-z0-9-]+$/,
};

// ---- FreeIPA secrets and logs -----------------------------------------------------

export const FREEIPA_SECRET_TYPES: ReadonlyArray<{ readonly secretType: string; readonly description: string }> = [
  { secretType: 'FREEIPA_ADMIN_PASSWORD', description: 'Password of the FreeIPA admin user' },
  { secretType: 'FREEIPA_LDAP_BIND_PASSWORD', description: 'Password the clusters of the environment bind to LDAP with' },
  { secretType: 'SALT_PASSWORD', description: 'Password of the SaltStack user on the FreeIPA instances' },
  { secretType: 'SALT_BOOT_SECRETS', description: 'Secrets the Salt bootstrap service on the FreeIPA instances starts with' },
  { secretType: 'SALT_SIGN_KEY_PAIR', description: 'Key pair the Salt master signs its messages with' },
  { secretType: 'SALT_MASTER_KEY_PAIR', description: 'Key pair of the Salt master' },
  {
    secretType: 'NGINX_CLUSTER_SSL_CERT_PRIVATE_KEY',
    description: 'Private key of the TLS certificate nginx serves on the FreeIPA instances',
  },
  { secretType: 'CCMV2_JUMPGATE_AGENT_ACCESS_KEY', description: 'Access key of the Cluster Connectivity Manager agent' },
  { secretType: 'USER_KEYPAIR', description: 'SSH key pair of the cloudbreak user on the FreeIPA instances' },
];

export const FREEIPA_LOGS: ReadonlyArray<{ readonly path: string; readonly label: string }> = [
  { path: '/var/log/krb5kdc.log', label: 'krb5kdc' },
  { path: '/var/log/kadmind.log', label: 'kadmind' },
  { path: '/var/log/dirsrv/slapd-*/access*', label: 'dirsrv-access' },
  { path: '/var/log/dirsrv/slapd-*/errors*', label: 'dirsrv-errors' },
  { path: '/var/log/httpd/error_log', label: 'httpd-errors' },
  { path: '/var/log/ipaupgrade.log', label: 'ipaupgrade' },
  { path: '/var/log/sssd/*.log', label: 'sssd' },
  { path: '/var/log/salt/minion', label: 'salt-minion' },
  { path: '/var/log/cdp-freeipa-healthagent/*.log', label: 'freeipa-healthagent' },
];

// ---- account telemetry ---------------------------------------------------------------

/** What account telemetry is until someone sets it, and what `telemetry account defaults` answers. */
export const TELEMETRY_DEFAULTS = {
  workloadAnalytics: true,
  reportDeploymentLogs: false,
  rules: [
    { value: '\\d{4}[^\\w]\\d{4}[^\\w]\\d{4}[^\\w]\\d{4}', replacement: 'XXXX-XXXX-XXXX-XXXX' },
    { value: '(password|passwd|pwd|PASSWORD)\\s*[=:]\\s*\\S+', replacement: '$1=[REDACTED]' },
  ],
};

// ---- credential prerequisites -------------------------------------------------------

/** The AWS account the control plane assumes roles from (made up, stable). */
export const CONTROL_PLANE_AWS_ACCOUNT = '150373582271';

const policy = (statements: ReadonlyArray<readonly [actions: readonly string[], resource: string]>): string =>
  b64(
    JSON.stringify(
      {
        Version: '2012-10-17',
        Statement: statements.map(([actions, resource]) => ({ Effect: 'Allow', Action: actions, Resource: resource })),
      },
      null,
      2,
    ),
  );

/** The cross-account role's policy, as a whole and per service that needs it. */
export function awsPrerequisites(partition: string): { policyJson: string; policies: Array<{ service: string; policyJson: string }> } {
  const environment: ReadonlyArray<readonly [string[], string]> = [
    [['ec2:CreateTags', 'ec2:DescribeInstances', 'ec2:RunInstances', 'ec2:TerminateInstances', 'ec2:DescribeSubnets'], '*'],
    [['cloudformation:CreateStack', 'cloudformation:DeleteStack', 'cloudformation:DescribeStacks'], '*'],
    [['iam:PassRole', 'iam:GetInstanceProfile'], `arn:${partition}:iam::*:role/*`],
  ];
  const datalake: ReadonlyArray<readonly [string[], string]> = [
    [['rds:CreateDBInstance', 'rds:DeleteDBInstance', 'rds:DescribeDBInstances'], '*'],
    [['kms:DescribeKey', 'kms:ListKeys'], '*'],
  ];
  const datahub: ReadonlyArray<readonly [string[], string]> = [
    [['autoscaling:CreateAutoScalingGroup', 'autoscaling:UpdateAutoScalingGroup', 'autoscaling:DeleteAutoScalingGroup'], '*'],
  ];
  return {
    policyJson: policy([...environment, ...datalake, ...datahub]),
    policies: [
      { service: 'Environment', policyJson: policy(environment) },
      { service: 'Data Lake', policyJson: policy(datalake) },
      { service: 'Data Hub', policyJson: policy(datahub) },
    ],
  };
}

export function azurePrerequisites(account: string): { appCreationCommand: string; roleDefinitionJson: string } {
  return {
    appCreationCommand: b64(
      `az ad sp create-for-rbac --name http://cdp-${account.slice(0, 8)}-app --role Contributor --scopes /subscriptions/{subscriptionId}`,
    ),
    roleDefinitionJson: b64(
      JSON.stringify(
        {
          Name: 'Cloudera Management Console Azure Operator',
          IsCustom: true,
          Description: 'What the control plane needs to provision environments, data lakes and Data Hubs',
          Actions: [
            'Microsoft.Compute/*',
            'Microsoft.Network/*',
            'Microsoft.Storage/storageAccounts/read',
            'Microsoft.Resources/deployments/*',
            'Microsoft.DBforPostgreSQL/flexibleServers/*',
          ],
          AssignableScopes: ['/subscriptions/{subscriptionId}'],
        },
        null,
        2,
      ),
    ),
  };
}

/** What an audit credential needs: write access to the archive location. */
export function auditPrerequisites(platform: CloudPlatform, partition: string, account: string): Record<string, unknown> {
  if (platform === 'AWS')
    return {
      externalId: stableUuid(`${account}/audit-external-id`),
      policyJson: policy([[['s3:PutObject', 's3:GetBucketLocation', 's3:ListBucket'], `arn:${partition}:s3:::*`]]),
    };
  if (platform === 'AZURE')
    return {
      appCreationCommand: b64(`az ad sp create-for-rbac --name http://cdp-${account.slice(0, 8)}-audit --skip-assignment`),
      roleDefinitionJson: b64(
        JSON.stringify({
          Name: 'Cloudera Audit Archiver',
          IsCustom: true,
          Actions: ['Microsoft.Storage/storageAccounts/blobServices/containers/write'],
        }),
      ),
    };
  return {
    serviceAccountCreationCommand: b64(
      `gcloud iam service-accounts create cdp-audit-archiver --display-name "CDP audit archiver" && gcloud projects add-iam-policy-binding {projectId} --member serviceAccount:cdp-audit-archiver@{projectId}.iam.gserviceaccount.com --role roles/storage.objectCreator`,
    ),
  };
}
