/**
 * The datalake and compute models: every operation has its command, its
 * alias answers, its skeleton holds exactly the request fields, long-running
 * operations have waiters polling real operations with real fields, and the
 * client-side rules accept and refuse what they should.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { skeleton } from '../../../src/lib/cli/input.js';
import { validateRequest } from '../../../src/lib/core/validate.js';
import { loadService, type Operation, type Service } from '../../../src/lib/model/index.js';
import { kebab } from '../../../src/lib/model/names.js';

let datalake: Service;
let compute: Service;

beforeAll(async () => {
  datalake = await loadService('datalake');
  compute = await loadService('compute');
});

const issues = (svc: Service, op: string, req: Record<string, unknown>): string[] => {
  const o = svc.operation(op);
  return validateRequest(svc.shapes, o.input, req, o.cli.rules).map((i) => i.message);
};

describe('datalake and compute models', () => {
  test('56 + 15 operations, each with a command and a working alias', () => {
    expect(datalake.operations()).toHaveLength(56);
    expect(compute.operations()).toHaveLength(15);
    for (const svc of [datalake, compute]) {
      for (const op of svc.operations()) {
        expect(svc.findByCommand(op.commandId)?.name).toBe(op.name);
        expect(svc.findByCommand(`${svc.topic} ${kebab(op.name)}`)?.name).toBe(op.name);
      }
    }
  });

  test('the required command names', () => {
    const ids = new Set([...datalake.operations(), ...compute.operations()].map((o) => o.commandId));
    for (const id of [
      'datalake create aws',
      'datalake create aws-gov',
      'datalake create azure',
      'datalake create gcp',
      'datalake list',
      'datalake describe',
      'datalake delete',
      'datalake backup',
      'datalake backups list',
      'datalake backup status',
      'datalake backup cancel',
      'datalake restore',
      'datalake restore status',
      'datalake restore cancel',
      'datalake diagnostics collect',
      'datalake diagnostics list',
      'datalake diagnostics cancel',
      'datalake upgrade prepare',
      'datalake upgrade start',
      'datalake scale horizontal',
      'datalake scale vertical',
      'datalake resize',
      'datalake repair',
      'datalake recover',
      'datalake certificates renew',
      'datalake certificates rotate',
      'datalake secrets rotate',
      'datalake operations describe',
      ...['create', 'describe', 'list', 'validate', 'update', 'upgrade', 'suspend', 'resume', 'delete'].map((v) => `compute clusters ${v}`),
      'compute deployments list',
      'compute deployments describe',
      'compute deployments upgrade',
      'compute operations status',
      'compute operations describe',
      'compute operations retry',
    ])
      expect(ids).toContain(id);
  });

  test('every skeleton holds exactly the request fields', () => {
    for (const svc of [datalake, compute]) {
      for (const op of svc.operations()) {
        const keys = Object.keys(skeleton(svc.shapes, op.input));
        expect({ op: op.name, keys }).toEqual({ op: op.name, keys: svc.requestFields(op).map((f) => f.name) });
      }
    }
  });

  test('waiters poll operations that exist with fields they take; mutating operation-id work has one', () => {
    for (const svc of [datalake, compute]) {
      for (const op of svc.operations()) {
        const w = op.cli.wait;
        const out = svc.shapes.get(op.output);
        const returnsOpId = out.kind === 'struct' && out.byName.has('operationId');
        if (returnsOpId && op.mutating) expect({ op: op.name, wait: Boolean(w) }).toEqual({ op: op.name, wait: true });
        if (!w) continue;
        const poll: Operation = svc.operation(w.poll);
        const fields = new Set(svc.requestFields(poll).map((f) => f.name));
        for (const f of Object.keys(w.input)) expect({ op: op.name, f, ok: fields.has(f) }).toEqual({ op: op.name, f, ok: true });
        expect(w.success.length).toBeGreaterThan(0);
      }
    }
  });

  test('deletes and cancels ask first; deprecated operations say what to use', () => {
    for (const op of [...datalake.operations(), ...compute.operations()]) {
      if (/^(delete|cancel)/.test(op.name)) expect({ op: op.name, d: op.cli.destructive }).toEqual({ op: op.name, d: true });
    }
    for (const name of ['renewCertificate', 'rotateAutoTlsCertificates', 'rotateSaltPassword'])
      expect(datalake.operation(name).cli.replacement).toMatch(/^[a-z-]+ [a-z-]+/);
    for (const name of ['startDatalake', 'stopDatalake']) expect(datalake.operation(name).cli.description).toMatch(/environment/);
  });
});

describe('datalake rules', () => {
  const aws = (loc: string): Record<string, unknown> => ({
    datalakeName: 'sales-lake',
    environmentName: 'env',
    cloudProviderConfiguration: { instanceProfile: 'arn:aws:iam::1:instance-profile/p', storageBucketLocation: loc },
  });
  const azure = (loc: string): Record<string, unknown> => ({
    datalakeName: 'ops-lake',
    environmentName: 'env',
    cloudProviderConfiguration: { managedIdentity: '/subscriptions/s/x', storageLocation: loc },
  });

  test('storage locations', () => {
    expect(issues(datalake, 'createAWSDatalake', aws('s3a://sales-data/lake'))).toEqual([]);
    expect(issues(datalake, 'createAWSDatalake', aws('s3://sales-data/lake')).join()).toMatch(/s3a/);
    expect(issues(datalake, 'createAWSDatalake', aws('s3a://')).join()).toMatch(/s3a/);
    expect(issues(datalake, 'createAzureDatalake', azure('abfs://data@opsstore.dfs.core.windows.net'))).toEqual([]);
    expect(issues(datalake, 'createAzureDatalake', azure('abfs://data@opsstore.blob.core.windows.net')).join()).toMatch(/abfs/);
    expect(issues(datalake, 'createAzureDatalake', azure('abfs://opsstore.dfs.core.windows.net')).join()).toMatch(/abfs/);
  });

  test('exclusive and required combinations', () => {
    const base = { datalakeName: 'l', targetSize: 'ENTERPRISE' };
    expect(issues(datalake, 'resizeDatalake', { ...base, skipValidation: true, validationOnly: true })).toHaveLength(1);
    expect(issues(datalake, 'resizeDatalake', { ...base, skipValidation: true, validationOnly: false })).toEqual([]);
    // The seed states the error for resize only: backup and restore take both.
    expect(issues(datalake, 'backupDatalake', { datalakeName: 'l', skipValidation: true, validationOnly: true })).toEqual([]);
    expect(issues(datalake, 'restoreDatalake', { datalakeName: 'l', skipValidation: true, validationOnly: true })).toEqual([]);
    expect(issues(datalake, 'backupDatalakeStatus', { datalakeName: 'l', backupId: 'a', backupName: 'b' })).toHaveLength(1);
    expect(issues(datalake, 'restoreDatalake', { datalakeName: 'l', backupLocationOverride: 's3a://b/x' })).toHaveLength(1);
    expect(
      issues(datalake, 'restoreDatalake', { datalakeName: 'l', backupId: 'a', backupName: 'b', backupLocationOverride: 's3a://b/x' }),
    ).toEqual([]);
    expect(issues(datalake, 'prepareDatalakeUpgrade', { datalake: 'l' })).toHaveLength(1);
    expect(issues(datalake, 'prepareDatalakeUpgrade', { datalake: 'l', runtime: '7.2.18' })).toEqual([]);
    // One of them must be present (the seed), not exactly one.
    expect(issues(datalake, 'prepareDatalakeUpgrade', { datalake: 'l', runtime: '7.2.18', imageId: 'i' })).toEqual([]);
    expect(
      issues(datalake, 'scaleHorizontally', { datalakeName: 'l', instanceGroupName: 'hms_scale_out', instanceGroupDesiredCount: 41 }),
    ).toHaveLength(1);
    expect(
      issues(datalake, 'scaleHorizontally', { datalakeName: 'l', instanceGroupName: 'hms_scale_out', instanceGroupDesiredCount: 0 }),
    ).toEqual([]);
  });

  test('upgrade combinations: one of imageId, runtime, lockComponents, imageId with lockComponents, or none', () => {
    const up = (r: Record<string, unknown>): number => issues(datalake, 'upgradeDatalake', { datalakeName: 'l', ...r }).length;
    expect(up({})).toBe(0);
    expect(up({ imageId: 'i' })).toBe(0);
    expect(up({ runtime: '7.3.1' })).toBe(0);
    expect(up({ lockComponents: true })).toBe(0);
    expect(up({ imageId: 'i', lockComponents: true })).toBe(0);
    expect(up({ imageId: 'i', runtime: '7.3.1' })).toBe(1);
    expect(up({ runtime: '7.3.1', lockComponents: true })).toBe(1);
  });
});

describe('compute rules', () => {
  test('cluster CRNs, CIDRs and overrides', () => {
    expect(issues(compute, 'describeCluster', { clusterCrn: 'crn:cdp:compute:us-west-1:acct:cluster:liftie-1' })).toEqual([]);
    expect(issues(compute, 'describeCluster', { clusterCrn: 'liftie-1' })).toHaveLength(1);
    expect(issues(compute, 'createCluster', { environment: 'e', name: 'n', network: { podCidr: '10.244.0.0/16' } })).toEqual([]);
    expect(issues(compute, 'createCluster', { environment: 'e', name: 'n', network: { podCidr: '10.244.0.0/33' } })).toHaveLength(1);
    const dep = { clusterCrn: 'crn:cdp:compute:us-west-1:a:cluster:c', namespace: 'n', name: 'm' };
    expect(issues(compute, 'upgradeDeployment', { ...dep, overrides: '{"replicas":2}' })).toEqual([]);
    expect(issues(compute, 'upgradeDeployment', { ...dep, overrides: 'replicas=2' })).toHaveLength(1);
  });
});
