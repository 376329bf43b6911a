/**
 * The lakehouse optimizer's fixed world in the emulator: which of the
 * account's environments run the optimizer on a Data Hub, the namespaces and
 * tables that hub sees, the built-in maintenance scripts and the time zones.
 * IDs are derived from the account, so they are stable across restarts and
 * resets.
 */
import type { WorldReads } from '../../world/contracts.js';
import { crn, stableUuid } from '../../ids.js';

export const CATALOG = 'spark_catalog';

/** Environment name -> the Data Hub that runs the optimizer there (the others do not have it). */
const HUBS: Readonly<Record<string, string>> = { 'lakehouse-aws': 'lakehouse-optimizer' };

/**
 * The account's AWS and Azure environments (the world's: the two platforms
 * the optimizer runs on, the seed says), as the optimizer reports them
 * (Environment): the hub fields and status are null where it does not run.
 */
export function environments(world: WorldReads, info: { readonly accountId: string; readonly region: string }) {
  const { accountId, region } = info;
  return world.environments
    .all()
    .filter((e) => e.cloudPlatform === 'AWS' || e.cloudPlatform === 'AZURE')
    .map((e) => {
      const hub = HUBS[e.environmentName];
      return {
        environmentName: e.environmentName,
        environmentCrn: e.crn,
        isCloEnabled: hub !== undefined,
        datahubName: hub ?? null,
        datahubCrn: hub ? crn('datahub', region, accountId, 'cluster', stableUuid(`${accountId}/hub/${hub}`)) : null,
        cloudPlatform: e.cloudPlatform,
        status: hub ? 'AVAILABLE' : null,
      };
    });
}

export type EnvironmentEntry = ReturnType<typeof environments>[number];

/** Namespace -> tables of the optimizer's hub. */
export const NAMESPACES: Readonly<Record<string, readonly string[]>> = {
  sales: ['orders', 'customers', 'returns'],
  finance: ['ledger', 'invoices'],
  logs: ['web_events', 'app_events'],
};

/** A built-in script: its source is `builtin://iceberg/<file>.py`; a run does its actions (by default, the one its file is named for). */
const script = (name: string, file: string, description: string, actions: readonly string[] = [file]) => ({
  name,
  uri: `builtin://iceberg/${file}.py`,
  description,
  actions,
});

export const SCRIPTS = [
  script('compaction', 'rewrite_data_files', 'Rewrites small data files into larger ones.'),
  script('expire_snapshots', 'expire_snapshots', 'Expires old snapshots and the files only they use.'),
  script('remove_orphan_files', 'remove_orphan_files', 'Deletes files no snapshot refers to.'),
  script('rewrite_manifests', 'rewrite_manifests', 'Rewrites manifests to speed up planning.'),
  script('full_maintenance', 'full_maintenance', 'Compaction, snapshot expiry and orphan file removal in one run.', [
    'rewrite_data_files',
    'expire_snapshots',
    'remove_orphan_files',
  ]),
];

export const TIMEZONES: ReadonlyArray<{ id: string; displayName: string; offset: number }> = [
  { id: 'UTC', displayName: '(UTC+00:00) Coordinated Universal Time', offset: 0 },
  { id: 'America/Los_Angeles', displayName: '(UTC-08:00) Pacific Time', offset: -480 },
  { id: 'America/Denver', displayName: '(UTC-07:00) Mountain Time', offset: -420 },
  { id: 'America/Chicago', displayName: '(UTC-06:00) Central Time', offset: -360 },
  { id: 'America/New_York', displayName: '(UTC-05:00) Eastern Time', offset: -300 },
  { id: 'Europe/London', displayName: '(UTC+00:00) London', offset: 0 },
  { id: 'Europe/Berlin', displayName: '(UTC+01:00) Berlin, Paris, Rome', offset: 60 },
  { id: 'Asia/Kolkata', displayName: '(UTC+05:30) India', offset: 330 },
  { id: 'Asia/Singapore', displayName: '(UTC+08:00) Singapore', offset: 480 },
  { id: 'Asia/Tokyo', displayName: '(UTC+09:00) Tokyo', offset: 540 },
  { id: 'Australia/Sydney', displayName: '(UTC+10:00) Sydney', offset: 600 },
];
