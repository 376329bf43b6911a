/**
 * The ml, de and opdb models: every operation has its resource command and
 * its cdp alias, lifecycle operations wait on the right describe call, and
 * the client-side rules accept and refuse what they should.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { validateRequest } from '../../../src/lib/core/validate.js';
import { loadService, type Service } from '../../../src/lib/model/index.js';
import { kebab } from '../../../src/lib/model/names.js';

let ml: Service;
let de: Service;
let opdb: Service;

beforeAll(async () => {
  [ml, de, opdb] = await Promise.all([loadService('ml'), loadService('de'), loadService('opdb')]);
});

const issues = (svc: Service, op: string, req: Record<string, unknown>): string[] => {
  const o = svc.operation(op);
  return validateRequest(svc.shapes, o.input, req, o.cli.rules).map((i) => i.message);
};

describe('ml, de and opdb models', () => {
  test('59 + 24 + 19 operations, each with a command and a working alias', () => {
    expect(ml.operations()).toHaveLength(59);
    expect(de.operations()).toHaveLength(24);
    expect(opdb.operations()).toHaveLength(19);
    for (const svc of [ml, de, opdb]) {
      for (const op of svc.operations()) {
        expect(svc.findByCommand(op.commandId)?.name).toBe(op.name);
        expect(svc.findByCommand(`${svc.topic} ${kebab(op.name)}`)?.name).toBe(op.name);
      }
    }
  });

  test('the lifecycle commands', () => {
    const ids = new Set([...ml.operations(), ...de.operations(), ...opdb.operations()].map((o) => o.commandId));
    for (const id of [
      ...['create', 'list', 'describe', 'delete', 'suspend', 'resume', 'upgrade'].map((v) => `ml workspaces ${v}`),
      ...['create', 'list', 'describe', 'delete', 'upgrade', 'rollback-upgrade'].map((v) => `ml model-registries ${v}`),
      ...['create', 'list', 'describe', 'delete', 'upgrade'].map((v) => `ml serving-apps ${v}`),
      ...['create', 'list', 'describe', 'delete', 'restore'].map((v) => `ml backups ${v}`),
      'ml workspaces access grant',
      'ml workspaces instance-groups add',
      ...['enable', 'disable', 'list', 'describe', 'update', 'upgrade'].map((v) => `de services ${v}`),
      ...['create', 'delete', 'list', 'describe', 'update', 'suspend', 'resume'].map((v) => `de vcs ${v}`),
      ...['create', 'list', 'describe', 'delete', 'cancel', 'restore'].map((v) => `de backups ${v}`),
      ...['create', 'list', 'describe', 'drop', 'start', 'stop', 'update'].map((v) => `opdb databases ${v}`),
      ...['describe', 'prepare', 'start'].map((v) => `opdb upgrade ${v}`),
      ...['create', 'list', 'delete', 'restore'].map((v) => `opdb snapshots ${v}`),
      'opdb diagnostics collect',
    ])
      expect(ids).toContain(id);
  });

  test('the lifecycles wait on their describe call, and deletes count "gone" as done', () => {
    const waits: Array<[Service, string, string, string]> = [
      [ml, 'createWorkspace', 'describeWorkspace', 'installation:finished'],
      [ml, 'deleteWorkspace', 'describeWorkspace', 'deprovision:finished'],
      [ml, 'suspendWorkspace', 'describeWorkspace', 'suspend:finished'],
      [ml, 'resumeWorkspace', 'describeWorkspace', 'resume:finished'],
      [ml, 'upgradeWorkspace', 'describeWorkspace', 'upgrade:finished'],
      [ml, 'restoreWorkspace', 'describeWorkspace', 'installation:finished'],
      [ml, 'deleteModelRegistry', 'describeModelRegistry', 'deprovision:finished'],
      [ml, 'upgradeModelRegistry', 'describeModelRegistry', 'upgrade:finished'],
      [ml, 'createMlServingApp', 'describeMlServingApp', 'installation:finished'],
      [ml, 'deleteMlServingApp', 'describeMlServingApp', 'deprovision:finished'],
      [ml, 'upgradeMlServingApp', 'describeMlServingApp', 'upgrade:finished'],
      [de, 'enableService', 'describeService', 'ClusterCreationCompleted'],
      [de, 'disableService', 'describeService', 'ClusterDeletionCompleted'],
      [de, 'restoreService', 'describeService', 'ClusterCreationCompleted'],
      [de, 'createVc', 'describeVc', 'AppInstalled'],
      [de, 'deleteVc', 'describeVc', 'AppDeleted'],
      [opdb, 'createDatabase', 'describeDatabase', 'AVAILABLE'],
      [opdb, 'startDatabase', 'describeDatabase', 'AVAILABLE'],
      [opdb, 'stopDatabase', 'describeDatabase', 'STOPPED'],
      [opdb, 'dropDatabase', 'describeDatabase', 'DELETE_COMPLETED'],
      [opdb, 'upgradeDatabase', 'describeDatabase', 'AVAILABLE'],
    ];
    for (const [svc, name, poll, success] of waits) {
      const w = svc.operation(name).cli.wait;
      expect({ name, poll: w?.poll, success: w?.success.includes(success) }).toEqual({ name, poll, success: true });
      expect({ name, gone: Boolean(w?.goneIsSuccess) }).toEqual({ name, gone: /^(delete|drop|disable)/.test(name) });
    }
  });

  test('opdb waiters take their states from the facts enums', () => {
    const status = opdb.shapes.resolve({ kind: 'ref', ref: 'StatusType' });
    const snapshot = opdb.shapes.resolve({ kind: 'ref', ref: 'SnapshotStatusType' });
    for (const op of opdb.operations()) {
      const w = op.cli.wait;
      if (!w) continue;
      const allowed = new Set(w.poll === 'describeDatabase' ? status.enum : snapshot.enum);
      for (const s of [...w.success, ...(w.failure ?? [])])
        expect({ op: op.name, s, ok: allowed.has(s) }).toEqual({ op: op.name, s, ok: true });
    }
  });

  test('deletes, drops, disables and revokes ask first', () => {
    for (const op of [...ml.operations(), ...de.operations(), ...opdb.operations()]) {
      if (/^(delete|drop|disable|revoke)/.test(op.name)) expect({ op: op.name, d: op.cli.destructive }).toEqual({ op: op.name, d: true });
    }
  });
});

describe('rules', () => {
  test('a workbench is named by CRN, or by environment and name together', () => {
    expect(issues(ml, 'describeWorkspace', { workspaceCrn: 'crn:cdp:ml:us-west-1:a:workspace:w' })).toEqual([]);
    expect(issues(ml, 'describeWorkspace', { environmentName: 'env', workspaceName: 'bench' })).toEqual([]);
    expect(issues(ml, 'describeWorkspace', { workspaceName: 'bench' }).join()).toMatch(/--environment-name together with --workspace-name/);
    expect(issues(ml, 'describeWorkspace', {})).toHaveLength(1);
    expect(issues(ml, 'deleteWorkspace', { force: false, environmentName: 'env' })).toHaveLength(1);
  });

  test('autoscaling ranges are not upside down', () => {
    const base = { workspaceCrn: 'crn', instanceGroupName: 'g', instanceType: 'm5.xlarge' };
    expect(issues(ml, 'modifyClusterInstanceGroup', { ...base, min: 1, max: 4 })).toEqual([]);
    expect(issues(ml, 'modifyClusterInstanceGroup', { ...base, min: 5, max: 4 }).join()).toMatch(/--min \(5\) is above --max \(4\)/);
    const svc = { name: 's', env: 'e', instanceType: 'm5.xlarge', minimumInstances: 1, maximumInstances: 10 };
    expect(issues(de, 'enableService', svc)).toEqual([]);
    expect(issues(de, 'enableService', { ...svc, minimumSpotInstances: 8, maximumSpotInstances: 2 }).join()).toMatch(
      /--minimum-spot-instances \(8\) is above --maximum-spot-instances \(2\)/,
    );
    expect(issues(de, 'updateService', { clusterId: 'c', minimumInstances: 3, maximumInstances: 1 })).toHaveLength(1);
  });

  test('exclusive choices', () => {
    const db = { environmentName: 'e', databaseName: 'd' };
    expect(issues(opdb, 'updateDatabase', { ...db, numDesiredRestworkerNodes: 2 })).toEqual([]);
    expect(issues(opdb, 'updateDatabase', { ...db, numDesiredRestworkerNodes: 2, removeRestworkerNodes: true })).toHaveLength(1);
    expect(issues(opdb, 'upgradeDatabase', { environment: 'e', database: 'd', runtime: '7.3.1', osUpgradeOnly: true })).toHaveLength(1);
    expect(issues(opdb, 'upgradeDatabase', { environment: 'e', runtime: '7.3.1' }).join()).toMatch(/--database/);
    expect(issues(de, 'updateVc', { clusterId: 'c', vcId: 'v', sparkConfigs: { a: 'b' }, discardSparkConfigs: true })).toHaveLength(1);
    expect(issues(ml, 'grantWorkspaceAccess', { workspaceCrn: 'crn', arn: 'arn:a', identifier: 'arn:a' })).toHaveLength(1);
  });
});
