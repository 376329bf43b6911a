/**
 * An API command run in-process from parsed flags, on a run context with a
 * fake transport and a fake clock: what it sends, what it returns, and what
 * its caller then shows (the GitHub CLI's run-function tests).
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { show } from '../../../src/lib/cli/render.js';
import { runOperation } from '../../../src/lib/cli/run-operation.js';
import type { ParsedFlags } from '../../../src/lib/cli/context.js';
import { issueKey } from '../../../src/lib/emulator/keys.js';
import { loadService, type Operation } from '../../../src/lib/model/index.js';
import { FakeTransport, fakeContext, type FakeContextOptions } from '../../helpers/fakes.js';

const key = issueKey('V2');
const env = { CDP_ACCESS_KEY_ID: 'k', CDP_PRIVATE_KEY: key.privateKey };
let listUsers: Operation;
let stopDatalake: Operation;

beforeAll(async () => {
  listUsers = (await loadService('iam')).operation('listUsers');
  stopDatalake = (await loadService('datalake')).operation('stopDatalake');
});

/** Runs an operation as an entry does: a context from the flags, the run, what it returns shown. */
async function runCommand(op: Operation, flags: ParsedFlags, opts: FakeContextOptions & { during?: () => void } = {}) {
  const fake = fakeContext({ 'endpoint-url': 'http://localhost:8080/', ...flags }, { env, ...opts });
  try {
    const output = await runOperation(op, flags, fake.ctx);
    opts.during?.();
    const code = await show(fake.ctx.io, output);
    return { ...fake, code, output };
  } finally {
    fake.ctx.close();
  }
}

describe('a paged listing', () => {
  test('returns the pages to show; shown as jsonl they stream, with the token to resume on stderr', async () => {
    const transport = FakeTransport.byPath({
      '/iam/listUsers': [
        { body: { users: [{ userId: 'a' }, { userId: 'b' }], nextToken: 't1' } },
        { body: { users: [{ userId: 'c' }], nextToken: 't2' } },
      ],
    });
    const { out, err, output, code } = await runCommand(listUsers, { output: 'jsonl', 'max-items': '3' }, { transport });
    expect(output.kind).toBe('listing');
    expect(code).toBe(0);
    expect(out.text).toBe('{"userId":"a"}\n{"userId":"b"}\n{"userId":"c"}\n');
    expect(err.text).toBe('nextToken: t2  (resume with --starting-token t2)\n');
    expect(transport.sent.map((s) => s.body)).toEqual([{ pageSize: 3 }, { pageSize: 1, startingToken: 't1' }]);
  });

  test('nothing is sent before the pages are read, and a bad --page-size is refused first', async () => {
    const transport = new FakeTransport();
    await expect(runCommand(listUsers, { 'page-size': '0' }, { transport })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: '--page-size must be an integer of at least 1; got "0"',
    });
    expect(transport.sent).toEqual([]);
  });

  test('the format comes from CDP_DEFAULT_OUTPUT when --output is not given', async () => {
    const transport = FakeTransport.byPath({ '/iam/listUsers': { body: { users: [{ userId: 'a', email: 'a@x' }] } } });
    const { out } = await runCommand(listUsers, {}, { transport, env: { ...env, CDP_DEFAULT_OUTPUT: 'yaml' } });
    expect(out.text).toBe('users:\n  - userId: a\n    email: a@x\n');
  });
});

describe('--wait', () => {
  const lake = (status: string) => ({ body: { datalake: { datalakeName: 'sales-lake', status } } });
  const transport = () =>
    FakeTransport.byPath({
      '/api/v1/datalake/stopDatalake': { body: {} },
      '/api/v1/datalake/describeDatalake': [lake('STOP_IN_PROGRESS'), lake('STOPPED')],
    });

  test('polls on the context’s clock, says each state on stderr, and the final state is the answer', async () => {
    const { out, err, clock } = await runCommand(stopDatalake, { 'datalake-name': 'sales-lake', wait: true }, { transport: transport() });
    expect(JSON.parse(out.text)).toEqual({ datalake: { datalakeName: 'sales-lake', status: 'STOPPED' } });
    expect(err.text).toBe(
      // Each line names the data lake it waits on.
      'warning: datalake stop is deprecated.\ndatalake stop sales-lake: STOP_IN_PROGRESS after 0 ms\ndatalake stop sales-lake: STOPPED after 1.0 s\n',
    );
    expect(clock.slept).toEqual([1000]);
  });

  test('Ctrl-C stops the wait, not the work, and says how to check on it', async () => {
    const stuck = FakeTransport.byPath({
      '/api/v1/datalake/stopDatalake': { body: {} },
      '/api/v1/datalake/describeDatalake': lake('STOP_IN_PROGRESS'),
    });
    const flags = { 'datalake-name': 'sales-lake', wait: true, 'cli-read-timeout': '30', 'endpoint-url': 'http://localhost:8080/' };
    const fake = fakeContext(flags, { env, transport: stuck });
    const sleep = fake.clock.sleep.bind(fake.clock);
    fake.clock.sleep = async (ms, signal) => {
      fake.interrupt();
      return sleep(ms, signal);
    };
    await expect(runOperation(stopDatalake, flags, fake.ctx)).rejects.toMatchObject({
      code: 'INTERRUPTED',
      message: 'stopped waiting; the operation goes on',
      details: [
        'Check on it with: cdpctl datalake describe --datalake-name sales-lake --endpoint-url http://localhost:8080/ --cli-read-timeout 30',
      ],
      exitCode: 130,
    });
  });
});
