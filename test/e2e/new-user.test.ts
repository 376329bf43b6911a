/**
 * What a new user found, side by side with `cdp` (issue 28, item 5), each
 * through the real binary against the emulator: the runtime a data lake
 * gets and what its help and a Data Hub say of it; `--wait` lines naming
 * things as users know them; an unknown field of `--cli-input-json` answered
 * with the fields there are (cdpcli's validate.py); `configure get` and
 * `configure list` showing secrets as `cdp` does (cdpcli's configure
 * get.py and list.py); `emulator status --profile`; `emulator export FILE`;
 * the text columns of a model newer than `cdp` 0.9.158, in migrating.md;
 * `login` at an emulator's console for a new profile; `emulator start
 * --empty` on a data directory that is no longer empty.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { FAST_WAIT, run, SALES_LAKE, startEmulator, tempHome, type TestEmulator } from '../helpers/cli.js';

let em: TestEmulator;

beforeAll(async () => {
  em = await startEmulator();
  // A data lake as a new user makes it, without --runtime: what the Data Hub and DE tests build on.
  const lake = await em.cli([...SALES_LAKE, ...FAST_WAIT]);
  if (lake.code !== 0) throw new Error(`datalake create failed: ${lake.stderr}`);
});

afterAll(async () => {
  await em?.stop();
});

describe('the runtime a data lake gets: help, default and the Data Hub check agree', () => {
  test('the default is the runtime `datalake runtimes list` marks; a newer hub is refused saying how to get there', async () => {
    // The official model says only "Cloudera Runtime version." of --runtime, and listRuntimes marks one defaultRuntimeVersion.
    const help = await em.raw(['datalake', 'create', 'aws', '--help']);
    expect(help.code).toBe(0);
    const runtimeHelp = /--runtime <string>\s+([\s\S]*?)\n {2}--/.exec(help.stdout)?.[1]?.replace(/\s+/g, ' ') ?? '';
    expect(runtimeHelp).not.toMatch(/default: the newest/);
    expect(runtimeHelp).toMatch(/default: the one `datalake runtimes list` marks as the default/);

    const runtimes = await em.json<{ versions: Array<{ runtimeVersion: string; defaultRuntimeVersion: boolean }> }>([
      'datalake',
      'runtimes',
      'list',
    ]);
    const marked = runtimes.versions.find((v) => v.defaultRuntimeVersion)?.runtimeVersion ?? '';
    const newest = runtimes.versions.map((v) => v.runtimeVersion).at(-1) ?? '';
    expect(marked).not.toBe(newest);

    const lake = await em.json<{ datalake: { imageDetails: { componentVersions: { cdp: string } } } }>([
      'datalake',
      'describe',
      '--datalake-name',
      'sales-lake',
    ]);
    expect(lake.datalake.imageDetails.componentVersions.cdp).toBe(marked);

    const hub = await em.cli([
      'datahub',
      'clusters',
      'create',
      'aws',
      '--cluster-name',
      'etl-newer',
      '--environment',
      'sales-env',
      '--cluster-definition',
      `${newest} - Data Engineering for AWS`,
    ]);
    expect(hub.code).toBe(1);
    expect(hub.stderr).toContain(`data lake sales-lake runs runtime ${marked}; a cluster of runtime ${newest} needs the data lake on`);
    expect(hub.stderr).toContain(`datalake upgrade start --datalake-name sales-lake --runtime ${newest}`);
    expect(hub.stderr).toContain(`or create the cluster from a ${marked} cluster definition`);
    const defHelp = await em.raw(['datahub', 'clusters', 'create', 'aws', '--help']);
    expect(defHelp.stdout.replace(/\s+/g, ' ')).toContain("its runtime may be no newer than the data lake's");
  });
});

describe('emulator start --empty on a data directory that is no longer empty', () => {
  test('is refused with exit 2, naming what the account holds; without --empty it starts', async () => {
    const home = tempHome('cdpctl-empty-');
    const dir = join(home, 'emu');
    const startLine = ['emulator', 'start', '--detach', '--port', '0', '--data-dir', dir, '--time-scale', '1000'];
    try {
      expect((await run([...startLine, '--empty'], { home })).code).toBe(0);
      expect((await run(['iam', 'groups', 'create', '--group-name', 'ops', '--profile', 'emulator'], { home })).code).toBe(0);
      expect((await run(['emulator', 'stop', '--data-dir', dir], { home })).code).toBe(0);
      const refused = await run([...startLine, '--empty'], { home });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('the account of this data directory is no longer empty: it holds');
      expect(refused.stderr).toContain('1 iam.group');
      expect(refused.stderr).toContain('start without --empty to keep what it holds');
      const kept = await run(startLine, { home });
      expect(kept.code).toBe(0);
      const groups = await run(['iam', 'groups', 'list', '--profile', 'emulator', '--output', 'json'], { home });
      expect(JSON.parse(groups.stdout)).toMatchObject({ groups: [expect.objectContaining({ groupName: 'ops' })] });
      // An account made empty and still empty may be started --empty again (its admin's keys do not count).
      expect((await run(['emulator', 'stop', '--data-dir', dir], { home })).code).toBe(0);
      const clean = join(home, 'clean');
      const cleanLine = ['emulator', 'start', '--detach', '--port', '0', '--data-dir', clean, '--empty', '--profile', 'clean'];
      expect((await run(cleanLine, { home })).code).toBe(0);
      expect((await run(['emulator', 'stop', '--data-dir', clean], { home })).code).toBe(0);
      expect((await run(cleanLine, { home })).code).toBe(0);
      expect((await run(['emulator', 'stop', '--data-dir', clean], { home })).code).toBe(0);
    } finally {
      await run(['emulator', 'stop', '--data-dir', dir], { home });
      rmSync(home, { recursive: true, force: true });
    }
  });
});
