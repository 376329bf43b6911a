/**
 * Durability: the emulator is killed with SIGKILL in the middle of a burst
 * of concurrent writes. Every write the CLI reported as done (exit 0) must
 * be there after a restart on the same data directory.
 */
import { afterAll, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, startEmulatorProcess, type RunResult, type TestEmulator } from '../helpers/cli.js';

let em: TestEmulator | undefined;

afterAll(async () => {
  await em?.stop();
});

test('kill -9 during a burst of concurrent writes loses no write that got exit 0', async () => {
  em = await startEmulatorProcess();
  const e = em;
  const { pid } = JSON.parse(readFileSync(join(e.dataDir, 'emulator.json'), 'utf8')) as { pid: number };
  const N = 24;
  let done = 0;
  let killed = false;
  const write = (i: number): Promise<RunResult> =>
    e
      .cli(
        i % 2 === 0
          ? ['iam', 'groups', 'create', '--group-name', `burst-${i}`]
          : ['iam', 'machine-users', 'create', '--machine-user-name', `burst-${i}`],
        { timeoutMs: 30_000 },
      )
      .then((r) => {
        // Kill once a few writes are through, while the rest are still in flight.
        if (r.code === 0 && ++done === 3 && !killed) {
          killed = true;
          process.kill(pid, 'SIGKILL');
        }
        return r;
      });
  const results = await Promise.all(Array.from({ length: N }, (_, i) => write(i)));
  expect(killed).toBe(true);
  const acknowledged = results.flatMap((r, i) => (r.code === 0 ? [i] : []));
  // Writes that did not get through failed as network errors, not as service errors.
  for (const r of results) expect([0, 4]).toContain(r.code);

  const restarted = await run(['emulator', 'start', '--port', '0', '--data-dir', e.dataDir, '--time-scale', '1000', '--detach'], {
    home: e.home,
  });
  expect(restarted.code).toBe(0);
  const [groups, machineUsers] = await Promise.all([
    e.json<{ groups: Array<{ groupName: string }> }>(['iam', 'groups', 'list']),
    e.json<{ machineUsers: Array<{ machineUserName: string }> }>(['iam', 'machine-users', 'list']),
  ]);
  const present = new Set([...groups.groups.map((g) => g.groupName), ...machineUsers.machineUsers.map((m) => m.machineUserName)]);
  const lost = acknowledged.filter((i) => !present.has(`burst-${i}`));
  expect({ acknowledged: acknowledged.length, lost }).toEqual({ acknowledged: expect.any(Number), lost: [] });
  expect(acknowledged.length).toBeGreaterThanOrEqual(3);
});
