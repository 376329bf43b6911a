/**
 * The lakehouse optimizer's fixed world in the emulator: a few environments
 * (one with the optimizer enabled on a Data Hub), the namespaces and tables
 * that hub sees, the built-in maintenance scripts and the time zones. IDs are
 * derived from the account, so they are stable across restarts and resets.
 */
import { createHash } from 'node:crypto';
import { crn } from '../../ids.js';

export const CATALOG = 'spark_catalog';

/** A UUID-shaped id derived from a seed. */
export function stableId(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface EnvironmentEntry {
  environmentName: string;
  environmentCrn: string;
  cloudPlatform: 'AWS' | 'AZURE';
  /** Present when the optimizer runs in the environment. */
  hub?: { datahubName: string; datahubCrn: string; status: string };
}

const ENVIRONMENTS: ReadonlyArray<{ name: string; platform: 'AWS' | 'AZURE'; hub?: string }> = [
  { name: 'lakehouse-aws', platform: 'AWS', hub: 'lakehouse-optimizer' },
  { name: 'analytics-azure', platform: 'AZURE' },
  { name: 'staging-aws', platform: 'AWS' },
];

export function environments(account: string, region: string): EnvironmentEntry[] {
  return ENVIRONMENTS.map((e) => ({
    environmentName: e.name,
    environmentCrn: crn('environments', region, account, 'environment', stableId(`${account}/env/${e.name}`)),
    cloudPlatform: e.platform,
    ...(e.hub
      ? {
          hub: {
            datahubName: e.hub,
            datahubCrn: crn('datahub', region, account, 'cluster', stableId(`${account}/hub/${e.hub}`)),
            status: 'AVAILABLE',
          },
        }
      : {}),
  }));
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
