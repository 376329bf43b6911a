/**
 * The environments every account starts with (shared/pre-created.ts), with
 * their credentials, made the first time anything asks (before each of
 * this service's operations and each read of the world's `environments`),
 * unless the account was made empty. Each is settled AVAILABLE from the
 * start; its id is its CRN's, derived from the account.
 */
import { crn, crnId, stableUuid } from '../../ids.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { settledIn } from '../../engine/timeline.js';
import { EMPTY_ACCOUNT, PRE_CREATED, preCreatedEnvironmentCrn } from '../../shared/pre-created.js';
import type { CloudPlatform, CredentialRec, EnvRecord } from './records.js';
import type { R } from './backend.js';

type PreCreated = (typeof PRE_CREATED)[number];

/** The network of an environment: given subnets, or three made-up ones named after it. */
export function networkOf(
  name: string,
  platform: CloudPlatform,
  given: { id?: string; subnets?: string[]; cidr?: string } = {},
): EnvRecord['network'] {
  const subnets = given.subnets && given.subnets.length > 0 ? [...given.subnets] : ['a', 'b', 'c'].map((z) => `${name}-subnet-${z}`);
  const network: EnvRecord['network'] = {
    networkName: `${name}-network`,
    subnetIds: subnets,
    networkCidr: given.cidr ?? '10.10.0.0/16',
  };
  if (platform === 'AWS') network.aws = { vpcId: given.id ?? `vpc-${stableUuid(name).slice(0, 8)}` };
  if (platform === 'AZURE') network.azure = { networkId: given.id ?? `${name}-vnet`, resourceGroupName: `${name}-rg`, usePublicIp: false };
  if (platform === 'GCP') network.gcp = { networkName: given.id ?? `${name}-network`, usePublicIp: false };
  return network;
}

/** Where a pre-created environment keeps its logs, by its cloud. */
const LOGS: Readonly<Record<CloudPlatform, (name: string) => Omit<EnvRecord['logStorage'], 'enabled'>>> = {
  AWS: (name) => ({
    awsDetails: { storageLocationBase: `s3a://${name}-logs/`, instanceProfile: `arn:aws:iam::123456789012:instance-profile/${name}-logs` },
  }),
  AZURE: (name) => ({
    azureDetails: { storageLocationBase: `abfs://logs@${name.replace(/-/g, '')}.dfs.core.windows.net`, managedIdentity: `${name}-logger` },
  }),
  GCP: (name) => ({
    gcpDetails: { storageLocationBase: `gs://${name}-logs/`, serviceAccountEmail: `logger@${name}.iam.gserviceaccount.com` },
  }),
};

function environmentOf(h: Hook<R>, e: PreCreated, created: string, creator: string | undefined): EngineRecord {
  const { accountId, region } = h.ctx.info;
  const envCrn = preCreatedEnvironmentCrn(accountId, region, e.name);
  const id = crnId(envCrn);
  const doc: EnvRecord = {
    environmentName: e.name,
    crn: envCrn,
    status: 'AVAILABLE',
    region: e.region,
    cloudPlatform: e.platform,
    credentialName: `${e.name}-credential`,
    description: e.about,
    created,
    ...(creator ? { creator } : {}),
    network: networkOf(e.name, e.platform, e.platform === 'AWS' ? { id: `vpc-${id.slice(0, 8)}` } : {}),
    logStorage: { enabled: true, ...LOGS[e.platform](e.name) },
    computeClusterEnabled: e.platform !== 'GCP',
    environmentType: 'PUBLIC_CLOUD',
    tags: { userDefined: {}, defaults: { owner: 'emulator' } },
    freeipa: { instanceCountByGroup: 1, multiAz: false, recipes: [] },
  };
  const now = h.ctx.clock.now();
  return { id, name: e.name, crn: envCrn, scope: '', doc: { ...doc }, activity: settledIn('create', 'AVAILABLE', now), createdAt: now };
}

/** The credential a pre-created environment was made with. */
function credentialOf(h: Hook<R>, e: PreCreated, created: string): EngineRecord {
  const { accountId, region } = h.ctx.info;
  const name = `${e.name}-credential`;
  const id = stableUuid(`${accountId}/credential/${name}`);
  const doc: CredentialRec = {
    credentialName: name,
    crn: crn('environments', region, accountId, 'credential', id),
    cloudPlatform: e.platform,
    created,
    description: `Credential of ${e.name}`,
    ...{
      AWS: {
        awsCredentialProperties: {
          roleArn: `arn:aws:iam::123456789012:role/${e.name}-cross-account`,
          govCloud: e.region.startsWith('us-gov-'),
        },
      },
      AZURE: { azureCredentialProperties: { appId: stableUuid(`${name}/app`), authenticationType: 'SECRET' } },
      GCP: { gcpCredentialProperties: { keyType: 'JSON' } },
    }[e.platform],
  };
  const now = h.ctx.clock.now();
  return { id, name, crn: doc.crn, scope: '', doc: { ...doc }, activity: settledIn('create', '', now), createdAt: now };
}

/** Makes the pre-created environments and their credentials once (the first time anything asks), unless the account was made empty. */
export function preCreate(h: Hook<R>): void {
  const store = h.ctx.store;
  const flag = `environments.seeded:${h.ctx.info.accountId}`;
  if (store.meta(flag) || store.meta(EMPTY_ACCOUNT) === '1') return;
  const created = h.ctx.clock.iso();
  const creator = store.meta('adminCrn');
  const envs = h.records('environment');
  const credentials = h.records('credential');
  store.transaction(() => {
    for (const e of PRE_CREATED) {
      envs.save(environmentOf(h, e, created, creator));
      credentials.save(credentialOf(h, e, created));
    }
    store.setMeta(flag, '1');
  });
}
