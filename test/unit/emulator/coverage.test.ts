/**
 * docs/emulator-services.md carries a table of what the emulator implements,
 * generated from its registry (coverage.ts, `npm run docs`). This fails when
 * the committed table is stale, and checks the table's counts add up to the
 * model's operations.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  COVERAGE_END,
  COVERAGE_START,
  coverageMarkdown,
  emulatorCoverage,
  servedCounts,
  type ServiceCoverage,
} from '../../../src/lib/emulator/coverage.js';
import { loadAllServices } from '../../../src/lib/model/index.js';
import { ROOT } from '../../helpers/cli.js';

let rows: ServiceCoverage[] = [];
beforeAll(async () => {
  rows = await emulatorCoverage();
});

describe('the emulator coverage table', () => {
  test('docs/emulator-services.md holds the table the registry gives (run `npm run docs` when this fails)', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'emulator-services.md'), 'utf8');
    const a = doc.indexOf(COVERAGE_START);
    const b = doc.indexOf(COVERAGE_END);
    expect(a).toBeGreaterThanOrEqual(0);
    expect(doc.slice(a, b + COVERAGE_END.length)).toBe(coverageMarkdown(rows));
  });

  test('every operation of every service is either implemented or answered NOT_EMULATED, once', async () => {
    const services = await loadAllServices();
    expect(rows.map((r) => r.service)).toEqual(services.map((s) => s.name));
    for (const s of services) {
      const r = rows.find((x) => x.service === s.name);
      expect([...(r?.implemented ?? []), ...(r?.notEmulated ?? [])].sort()).toEqual(
        s
          .operationNames()
          .filter((n) => !s.operation(n).composed)
          .sort(),
      );
    }
    const count = (name: string): number => rows.find((r) => r.service === name)?.implemented.length ?? 0;
    expect(count('environments')).toBeGreaterThan(20);
    expect(count('opdb')).toBe(19);
  });

  test('every implemented operation says how it is served: by a declaration, one with hooks (named), or code', () => {
    for (const r of rows)
      for (const op of r.implemented) {
        const s = r.servedBy[op];
        expect(s?.what).toBeTruthy();
        expect((s?.how === 'hook') === (s?.hooks !== undefined && s.hooks.length > 0)).toBe(true);
      }
    // A verb the engine serves with no code of the service, one with its hook named, and a hand-written one.
    const opdb = rows.find((r) => r.service === 'opdb')?.servedBy ?? {};
    expect(opdb.listDatabases).toEqual({ how: 'declared', what: 'database.list' });
    expect(opdb.describeClientConnectivity?.hooks).toContain('answer');
    // A resource read from another service (the environments COD runs in) is a declaration too.
    expect(opdb.listSupportedEnvironments).toEqual({ how: 'declared', what: 'environment.list' });
    const consumption = rows.find((r) => r.service === 'consumption')?.servedBy ?? {};
    expect(consumption.listComputeUsageRecords).toEqual({ how: 'code', what: 'listComputeUsageRecords' });
  });

  // A ratchet (issue 29: at least 75% of the operations served by declarations, with or without hooks): raise it as services move.
  test('at least this many operations are served by declarations', () => {
    const declared = rows.reduce((t, r) => t + servedCounts(r).declared + servedCounts(r).hook, 0);
    expect(declared).toBeGreaterThanOrEqual(656);
  });
});
