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

/** An environment as the optimizer reports it (Environment): the hub fields and status are null where the optimizer does not run. */
export interface EnvironmentEntry {
  environmentName: string;
  environmentCrn: string;
  isCloEnabled: boolean;
  datahubName: string | null;
  datahubCrn: string | null;
  cloudPlatform: string;
  status: string | null;
}

/** Environment name -> the Data Hub that runs the optimizer there (the others do not have it). */
const HUBS: Readonly<Record<string, string>> = { 'lakehouse-aws': 'lakehouse-optimizer' };

/** The two platforms the optimizer runs on (its Environment's cloudPlatform is one of them, the seed says). */
const OPTIMIZER_PLATFORMS: ReadonlySet<string> = new Set(['AWS', 'AZURE']);

/** The account's AWS and Azure environments (the world's), with the optimizer hub where it runs. */
export function environments(world: WorldReads, info: { readonly accountId: string; readonly region: string }): EnvironmentEntry[] {
  const { accountId, region } = info;
  return world.environments
    .all()
    .flatMap((e) => (OPTIMIZER_PLATFORMS.has(e.cloudPlatform) ? [e] : []))
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

/** Namespace -> tables of the optimizer's hub. */
export const NAMESPACES: Readonly<Record<string, readonly string[]>> = {
  sales: ['orders', 'customers', 'returns'],
  finance: ['ledger', 'invoices'],
  logs: ['web_events', 'app_events'],
};

export interface ScriptEntry {
  name: string;
  uri: string;
  description: string;
  /** What a run of the script does. */
  actions: readonly string[];
}

export const SCRIPTS: readonly ScriptEntry[] = [
  {
    name: 'compaction',
    uri: 'builtin://iceberg/rewrite_data_files.py',
    description: 'Rewrites small data files into larger ones.',
    actions: ['rewrite_data_files'],
  },
  {
    name: 'expire_snapshots',
    uri: 'builtin://iceberg/expire_snapshots.py',
    description: 'Expires old snapshots and the files only they use.',
    actions: ['expire_snapshots'],
  },
  {
    name: 'remove_orphan_files',
    uri: 'builtin://iceberg/remove_orphan_files.py',
    description: 'Deletes files no snapshot refers to.',
    actions: ['remove_orphan_files'],
  },
  {
    name: 'rewrite_manifests',
    uri: 'builtin://iceberg/rewrite_manifests.py',
    description: 'Rewrites manifests to speed up planning.',
    actions: ['rewrite_manifests'],
  },
  {
    name: 'full_maintenance',
    uri: 'builtin://iceberg/full_maintenance.py',
    description: 'Compaction, snapshot expiry and orphan file removal in one run.',
    actions: ['rewrite_data_files', 'expire_snapshots', 'remove_orphan_files'],
  },
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
