/**
 * The builders services share (emulator/shared/): the kubeconfig document
 * kubectl reads, with a token or a credential plugin, and the one table of
 * Cloudera Runtime versions.
 */
import { describe, expect, test } from '@jest/globals';
import { parse } from 'yaml';
import { kubeconfig } from '../../../src/lib/emulator/shared/kubeconfig.js';
import {
  compareVersions,
  DEFAULT_RUNTIME,
  newerRuntimes,
  runtimeOf,
  runtimesFrom,
  upgradeOf,
} from '../../../src/lib/emulator/shared/runtimes.js';

describe('kubeconfig', () => {
  test('a token user: one cluster with its CA, one context, the current one', () => {
    const doc = parse(
      kubeconfig({ cluster: 'c1', server: 'https://api.c1:443', ca: 'Q0E=', user: 'alice', auth: { token: 'tok' } }),
    ) as Record<string, unknown>;
    expect(doc).toMatchObject({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c1', cluster: { server: 'https://api.c1:443' } }],
      contexts: [{ name: 'c1', context: { cluster: 'c1', user: 'alice' } }],
      'current-context': 'c1',
      users: [{ name: 'alice', user: { token: 'tok' } }],
    });
    const ca = (doc.clusters as Array<{ cluster: Record<string, string> }>)[0]?.cluster['certificate-authority-data'] ?? '';
    expect(Buffer.from(ca, 'base64').toString()).toBe('-----BEGIN CERTIFICATE-----\nQ0E=\n-----END CERTIFICATE-----\n');
  });

  test('a credential plugin, and no CA when none is given', () => {
    const doc = parse(
      kubeconfig({ cluster: 'c2', server: 's', user: 'u', auth: { exec: { command: 'aws', args: ['eks', 'get-token'] } } }),
    ) as {
      clusters: Array<{ cluster: Record<string, string> }>;
      users: Array<{ user: { exec: Record<string, unknown> } }>;
    };
    expect(doc.clusters[0]?.cluster['certificate-authority-data']).toBeUndefined();
    expect(doc.users[0]?.user.exec).toEqual({
      apiVersion: 'client.authentication.k8s.io/v1beta1',
      command: 'aws',
      args: ['eks', 'get-token'],
    });
  });
});

describe('runtimes', () => {
  test('ordered, with a default among them, and one step upgrades', () => {
    expect(compareVersions('7.2.9', '7.2.18')).toBeLessThan(0);
    // As a numeric collation orders them (what the services compared with before), without its collator.
    const versions = [
      '7.2.18',
      '7.2.9',
      '7.3.1',
      '7.2',
      '7.2.17',
      '2.0.50-b58',
      '2.0.49-b11',
      '2.0.49-b101',
      '1.24.1',
      '1.3.0',
      '7.2.18.1',
      '7.2.18a',
    ];
    const collated = [...versions].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    expect([...versions].sort(compareVersions)).toEqual(collated);
    expect(runtimeOf(DEFAULT_RUNTIME)?.cm).toBe('7.12.0');
    expect(runtimesFrom('7.2.17').map((r) => r.version)).toEqual(['7.2.17', '7.2.18', '7.3.1']);
    expect(newerRuntimes('7.2.17')).toEqual(['7.2.18', '7.3.1']);
    expect(upgradeOf('7.2.18')).toBe('7.3.1');
    expect(upgradeOf('7.3.1')).toBeUndefined();
  });
});
