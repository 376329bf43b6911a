/**
 * Every operation of privatelink, datacatalog and lakehouse, found by its
 * hidden cdpcli alias, answers --generate-skeleton with exactly the request
 * fields of the model (nested shapes expanded), and the command ids match
 * the ones the issue asks for.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { show } from '../../../src/lib/cli/render.js';
import { runOperation } from '../../../src/lib/cli/run-operation.js';
import { loadService, type Service } from '../../../src/lib/model/index.js';
import { kebab } from '../../../src/lib/model/names.js';
import { fakeContext } from '../../helpers/fakes.js';

const services: Record<string, Service> = {};

beforeAll(async () => {
  for (const t of ['privatelink', 'datacatalog', 'lakehouse']) services[t] = await loadService(t);
});

async function skeletonOf(topic: string, alias: string): Promise<Record<string, unknown>> {
  const svc = services[topic];
  const op = svc?.findByCommand(`${topic} ${alias}`);
  if (!op) throw new Error(`no operation answers ${topic} ${alias}`);
  const flags = { 'generate-skeleton': true };
  const { ctx, out } = fakeContext(flags);
  await show(ctx.io, await runOperation(op, flags, ctx));
  return JSON.parse(out.text) as Record<string, unknown>;
}

describe('--generate-skeleton through every alias', () => {
  test.each([
    ['privatelink', 9],
    ['datacatalog', 21],
    ['lakehouse', 30],
  ])('%s: all %i operations', async (topic, count) => {
    const svc = services[topic] as Service;
    expect(svc.operations()).toHaveLength(count);
    for (const op of svc.operations()) {
      expect(op.aliasId).toBe(`${topic} ${kebab(op.name)}`);
      const sk = await skeletonOf(topic, kebab(op.name));
      expect(Object.keys(sk).sort()).toEqual(
        svc
          .requestFields(op)
          .map((f) => f.name)
          .sort(),
      );
    }
  });

  test('nested shapes are expanded', async () => {
    const sk = await skeletonOf('privatelink', 'create-private-link-endpoint');
    // An enum is a blank to fill in, as the official CLI writes it.
    expect(sk.cloudServiceProvider).toBe('');
    expect(Object.keys(sk.azureAccountDetails as object)).toContain('azureClientSecretCredential');
    expect(sk.resourceTags).toEqual([{ key: '', value: '' }]);
    const ds = await skeletonOf('datacatalog', 'create-data-share');
    expect(ds.assets).toEqual([{ databaseName: '', tableName: '', guid: '', columns: [''] }]);
  });
});

describe('command ids', () => {
  const ids = (topic: string): string[] =>
    (services[topic] as Service)
      .operations()
      .map((op) => op.commandId)
      .sort();

  test('privatelink', () => {
    expect(ids('privatelink')).toEqual(
      [
        'endpoints create',
        'endpoints update',
        'endpoints delete',
        'endpoints migrate',
        'endpoints status',
        'status',
        'services list',
        'access authorize',
        'access revoke',
      ]
        .map((c) => `privatelink ${c}`)
        .sort(),
    );
  });

  test('datacatalog', () => {
    const shares = [
      'create',
      'describe',
      'list',
      'update',
      'delete',
      'share',
      'unshare',
      'add-assets',
      'remove-assets',
      'grant-access',
      'update-access',
      'remove-access',
    ];
    const users = ['create', 'list', 'delete', 'revoke-credentials', 'regenerate-credentials'];
    expect(ids('datacatalog')).toEqual(
      [
        ...shares.map((v) => `shares ${v}`),
        ...users.map((v) => `external-users ${v}`),
        'tags suggested',
        'tags review',
        'profilers launch',
        'fgac-status',
      ]
        .map((c) => `datacatalog ${c}`)
        .sort(),
    );
  });

  test('lakehouse', () => {
    const policies = [
      'create',
      'update',
      'delete',
      'describe',
      'list',
      'names',
      'download',
      'execute',
      'associations',
      'associated-namespaces',
      'associated-tables',
      'unsubscribe',
    ];
    const tables = ['list', 'names', 'policies', 'status', 'pause', 'unpause', 'change-policy', 'add-policies'];
    expect(ids('lakehouse')).toEqual(
      [
        'environments list',
        'datahub describe',
        'datahub crn',
        'health',
        'namespaces list',
        ...tables.map((v) => `tables ${v}`),
        ...policies.map((v) => `policies ${v}`),
        'associations create',
        'associations details',
        'scripts list',
        'timezones list',
        'tasks list',
      ]
        .map((c) => `lakehouse ${c}`)
        .sort(),
    );
  });

  test('deletes, revokes and removals ask first', () => {
    const destructive = Object.values(services)
      .flatMap((s) => s.operations())
      .filter((op) => op.cli.destructive)
      .map((op) => op.name)
      .sort();
    expect(destructive).toEqual(
      [
        'deleteDataShare',
        'deleteExternalUser',
        'deletePolicy',
        'deletePrivateLinkEndpoint',
        'removeAccessOfExternalUsersOnDataShare',
        'removeAssetsFromDataShare',
        'revokeExternalUserCredentials',
        'revokePrivateLinkServiceAccess',
        'unsubscribePolicy',
      ].sort(),
    );
  });
});
