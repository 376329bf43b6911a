/**
 * Data Hub's built-in templates and definitions, in an emulator in this
 * process: what listClusterDefinitions shows is what a cluster create
 * accepts (each listed definition builds a cluster with the create of its
 * cloud, in an environment of that cloud, and describes as listed), every
 * listed template builds one on its own, and a name the lists do not show is
 * refused. The older request template gives a create the fields it lacks.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrap } from '../../../../../src/lib/emulator/bootstrap.js';
import { ApiError } from '../../../../../src/lib/emulator/errors.js';
import { Emulator } from '../../../../../src/lib/emulator/server.js';
import type { Doc } from '../../../../../src/lib/emulator/types.js';

const dir = mkdtempSync(join(tmpdir(), 'cdpctl-datahub-catalogue-'));
let em: Emulator;
const call = (op: string, req: Doc): Doc => em.call('datahub', op, req);

/** The create of each cloud a definition names, and an environment of that cloud. */
const CREATE: Readonly<Record<string, { op: string; env: Doc }>> = {
  AWS: { op: 'createAWSCluster', env: { environment: 'sales-env' } },
  'AWS GovCloud': { op: 'createAWSGovCloudCluster', env: { environment: 'gov-env' } },
  Azure: { op: 'createAzureCluster', env: { environmentName: 'ops-env' } },
  'Google Cloud': { op: 'createGCPCluster', env: { environmentName: 'ml-env' } },
};

beforeAll(async () => {
  em = new Emulator({ dataDir: dir, timeScale: 1, requestLog: false });
  await em.start();
  await bootstrap(em, { HOME: dir });
});

afterAll(async () => {
  await em.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('datahub built-in catalogue', () => {
  test('every listed definition builds a cluster of its runtime and node count, and describes as listed', () => {
    const defs = call('listClusterDefinitions', {}).clusterDefinitions as Doc[];
    expect(defs.length).toBeGreaterThan(20);
    defs.forEach((d, i) => {
      const name = String(d.clusterDefinitionName);
      const cloud = /for (AWS GovCloud|AWS|Azure|Google Cloud)$/.exec(name)?.[1] ?? '';
      const create = CREATE[cloud];
      if (!create) throw new Error(`definition ${name} names no cloud`);
      const definition =
        create.op === 'createAzureCluster' || create.op === 'createGCPCluster'
          ? { clusterDefinitionName: name }
          : { clusterDefinition: name };
      const made = call(create.op, { clusterName: `hub-${i}`, ...create.env, ...definition }).cluster as Doc;
      expect([name, made.nodeCount, (made.clouderaManager as Doc).platformVersion]).toEqual([name, d.nodeCount, d.productVersion]);
      expect((call('describeClusterDefinition', { clusterDefinitionName: name }).clusterDefinition as Doc).crn).toBe(d.crn);
    });
  });

  test('every listed template builds a cluster on its own, with its host groups', () => {
    const templates = call('listClusterTemplates', {}).clusterTemplates as Doc[];
    templates.forEach((t, i) => {
      const made = call('createAWSCluster', { clusterName: `tpl-${i}`, environment: 'sales-env', clusterTemplate: t.clusterTemplateName })
        .cluster as Doc;
      expect([t.clusterTemplateName, (made.instanceGroups as Doc[]).length]).toEqual([t.clusterTemplateName, t.instanceGroupCount]);
      expect(made.clusterTemplateCrn).toBe(t.crn);
    });
  });

  test("VM types: a built-in template's, of its credential's cloud; an unknown template or credential is refused", () => {
    const template = String((call('listClusterTemplates', {}).clusterTemplates as Doc[])[0]?.clusterTemplateName);
    const credential = String(
      (em.call('environments', 'describeEnvironment', { environmentName: 'ops-env' }).environment as Doc).credentialName,
    );
    const vm = call('getVmTypes', { clusterTemplate: template, credential, region: 'westus2' });
    expect((vm.vmTypes as string[])[0]).toBe('Standard_D8s_v3');
    expect(JSON.parse(String((vm.vmTypesWithMetadata as Doc[])[0]?.properties))).toEqual({ Cpu: 8, Memory: 32, region: 'westus2' });
    expect(() => call('getVmTypes', { clusterTemplate: 'no such template', credential, region: 'westus2' })).toThrow(
      /cluster template no such template not found/,
    );
    expect(() => call('getVmTypes', { clusterTemplate: template, credential: 'nope', region: 'westus2' })).toThrow(
      /credential nope not found/,
    );
  });

  test('a definition or template the lists do not show is refused, and no cluster is made', () => {
    const refused = (req: Doc): string => {
      try {
        call('createAWSCluster', { clusterName: 'odd-hub', environment: 'sales-env', ...req });
      } catch (e) {
        if (e instanceof ApiError) return `${e.code}: ${e.message}`;
        throw e;
      }
      return 'accepted';
    };
    expect(refused({ clusterDefinition: '7.2.16 - Data Engineering for AWS' })).toMatch(/^NOT_FOUND: cluster definition/);
    expect(refused({ clusterTemplate: '7.2.18 - Data Science' })).toMatch(/^NOT_FOUND: cluster template/);
    const names = (call('listClusters', {}).clusters as Doc[]).map((c) => c.clusterName);
    expect(names).not.toContain('odd-hub');
  });

  test('the older request template (a cluster request as JSON) gives the fields the request lacks; not JSON is refused', () => {
    const template = JSON.stringify({
      environment: 'sales-env',
      clusterDefinition: '7.2.18 - Data Mart for AWS',
      clusterName: 'other-name',
    });
    const made = call('createAWSCluster', { clusterName: 'templated-hub', requestTemplate: template }).cluster as Doc;
    expect([made.clusterName, made.workloadType]).toEqual(['templated-hub', '7.2.18 - Data Mart: Apache Impala, Hue']);
    expect(() => call('createAWSCluster', { clusterName: 'templated-two', requestTemplate: 'mart please' })).toThrow(
      /requestTemplate is not JSON/,
    );
  });
});
