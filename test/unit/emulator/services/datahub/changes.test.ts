/**
 * Changes of a Data Hub cluster that are updates of its record, in an
 * emulator in this process: its image catalog (shown in its image details)
 * and its instance groups' recipes (the answer says what each group gained
 * and lost; describe shows them).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrap } from '../../../../../src/lib/emulator/bootstrap.js';
import { Emulator } from '../../../../../src/lib/emulator/server.js';
import type { Doc } from '../../../../../src/lib/emulator/types.js';

const dir = mkdtempSync(join(tmpdir(), 'cdpctl-datahub-changes-'));
let em: Emulator;
const call = (op: string, req: Doc): Doc => em.call('datahub', op, req);
const groups = (): Doc[] => (call('describeCluster', { clusterName: 'recipe-hub' }).cluster as Doc).instanceGroups as Doc[];

beforeAll(async () => {
  em = new Emulator({ dataDir: dir, timeScale: 1, requestLog: false });
  await em.start();
  await bootstrap(em, { HOME: dir });
  call('createAWSCluster', { clusterName: 'recipe-hub', environment: 'sales-env', clusterDefinition: '7.2.18 - Data Mart for AWS' });
  for (const name of ['warm-cache', 'tune-os'])
    call('createRecipe', { recipeName: name, type: 'POST_SERVICE_DEPLOYMENT', recipeContent: '#!/bin/sh\ntrue' });
});

afterAll(async () => {
  await em.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('datahub cluster changes', () => {
  test('setCatalog: the image catalog the cluster shows from then on; an empty name is refused', () => {
    expect(call('setCatalog', { cluster: 'recipe-hub', catalogName: 'my-catalog' })).toEqual({});
    const image = (call('describeCluster', { clusterName: 'recipe-hub' }).cluster as Doc).imageDetails as Doc;
    expect(image.catalogName).toBe('my-catalog');
    expect(() => call('setCatalog', { cluster: 'recipe-hub', catalogName: ' ' })).toThrow(/give the name of the image catalog/);
  });

  test('replaceRecipes: what each group gained and lost, shown by describe; an unknown group or recipe is refused', () => {
    const first = call('replaceRecipes', {
      datahub: 'recipe-hub',
      instanceGroupRecipes: [{ instanceGroupName: 'executor', recipeNames: ['warm-cache', 'tune-os'] }],
    });
    expect(first).toEqual({
      attachedRecipes: [{ instanceGroupName: 'executor', recipeNames: ['warm-cache', 'tune-os'] }],
      detachedRecipes: [],
    });
    const second = call('replaceRecipes', {
      datahub: 'recipe-hub',
      instanceGroupRecipes: [{ instanceGroupName: 'executor', recipeNames: ['tune-os'] }],
    });
    expect(second).toEqual({ attachedRecipes: [], detachedRecipes: [{ instanceGroupName: 'executor', recipeNames: ['warm-cache'] }] });
    expect(groups().map((g) => [g.name, g.recipes])).toEqual([
      ['master', []],
      ['coordinator', []],
      ['executor', ['tune-os']],
    ]);
    const bad =
      (group: string, recipe: string): (() => Doc) =>
      () =>
        call('replaceRecipes', { datahub: 'recipe-hub', instanceGroupRecipes: [{ instanceGroupName: group, recipeNames: [recipe] }] });
    expect(bad('nosuch', 'tune-os')).toThrow(/cluster recipe-hub has no instance group nosuch/);
    expect(bad('executor', 'nosuch')).toThrow(/recipe nosuch not found/);
    expect(groups().find((g) => g.name === 'executor')?.recipes).toEqual(['tune-os']);
  });
});
