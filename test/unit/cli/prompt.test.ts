/**
 * Asking a person, in-process: IO on buffers with a person played by the
 * test, who answers each question from a script the way enquirer would (an
 * answer its check refuses is not taken, and the next is given).
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import type { Question } from '../../../src/lib/cli/io.js';
import { answerValue, asFlags, confirm, issueText, promptMissing, questionFor } from '../../../src/lib/cli/prompt.js';
import { CdpError } from '../../../src/lib/core/errors.js';
import { validateRequest } from '../../../src/lib/core/validate.js';
import { loadService, type Operation } from '../../../src/lib/model/index.js';
import { bufferIO } from '../../helpers/fakes.js';

let createGroup: Operation;
let createMachineUser: Operation;
let updateAccessKey: Operation;
let setWorkloadPassword: Operation;
let configureArchiving: Operation;

beforeAll(async () => {
  const iam = await loadService('iam');
  createGroup = iam.operation('createGroup');
  createMachineUser = iam.operation('createMachineUser');
  updateAccessKey = iam.operation('updateAccessKey');
  setWorkloadPassword = iam.operation('setWorkloadPassword');
  configureArchiving = (await loadService('audit')).operation('configureArchiving');
});

/** A person at a terminal who answers from a script; what each question said and what the checks refused are kept. */
function person(answers: unknown[]) {
  const asked: Question[] = [];
  const refused: string[] = [];
  const ask = async (q: Question): Promise<unknown> => {
    asked.push(q);
    for (;;) {
      if (answers.length === 0) throw new Error('cancelled');
      const answer = answers.shift();
      const check = q.validate as ((raw: string) => true | string) | undefined;
      const verdict = check ? check(String(answer)) : true;
      if (verdict === true) return answer;
      refused.push(verdict);
    }
  };
  const { io, err } = bufferIO({ tty: true, ask });
  return { io, err, asked, refused };
}

describe('promptMissing', () => {
  test('asks nothing when no person is there; the validator then reports what is missing', async () => {
    const request = {};
    await promptMissing(createGroup, request, bufferIO({ tty: false }).io);
    expect(request).toEqual({});
    expect(validateRequest(createGroup.service.shapes, createGroup.input, request).map((i) => issueText(createGroup, i))).toEqual([
      '--group-name is required',
    ]);
  });

  test('asks for each missing required field by its flag, and an answer the model refuses is asked again', async () => {
    const { io, asked, refused } = person(['__bad', 'ci-deployer']);
    const request: Record<string, unknown> = {};
    await promptMissing(createMachineUser, request, io);
    expect(request).toEqual({ machineUserName: 'ci-deployer' });
    expect(asked.map((q) => [q.type, String(q.message).split(' ')[0]])).toEqual([['input', '--machine-user-name']]);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/^--machine-user-name/);
  });

  test('an enum is a choice among its values', async () => {
    const { io, asked } = person(['INACTIVE']);
    const request: Record<string, unknown> = { accessKeyId: 'k1' };
    await promptMissing(updateAccessKey, request, io);
    expect(request).toEqual({ accessKeyId: 'k1', status: 'INACTIVE' });
    expect(asked.map((q) => [q.type, q.choices])).toEqual([['select', ['ACTIVE', 'INACTIVE']]]);
  });

  test('a boolean is a yes/no question', async () => {
    const { io, asked } = person(['s3a://b/audit', 'creds', true]);
    const request: Record<string, unknown> = {};
    await promptMissing(configureArchiving, request, io);
    expect(request).toEqual({ storageLocation: 's3a://b/audit', credentialName: 'creds', enabled: true });
    expect(asked.map((q) => q.type)).toEqual(['input', 'input', 'confirm']);
  });

  test('a new password is typed twice, masked; two different answers are asked again', async () => {
    const { io, err, asked } = person(['Secret-1!', 'Secret-2!', 'Secret-1!', 'Secret-1!']);
    const request: Record<string, unknown> = {};
    await promptMissing(setWorkloadPassword, request, io);
    expect(request).toEqual({ password: 'Secret-1!' });
    expect(asked.map((q) => q.type)).toEqual(['password', 'password', 'password', 'password']);
    expect(err.text).toBe('The two answers differ; please type it again.\n');
  });

  test('Ctrl-C at a prompt stops with nothing sent (exit 130)', async () => {
    const err = await promptMissing(createGroup, {}, person([]).io).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CdpError);
    expect(err).toMatchObject({ code: 'CANCELLED', message: 'cancelled at the prompt; nothing was sent', exitCode: 130 });
  });
});

describe('questions and answers', () => {
  test('a list answer is split at commas, as its flag would take it', () => {
    const user = createGroup.service.operation('createUser');
    const field = user.service.requestFields(user).find((f) => f.name === 'groups');
    expect(field && answerValue(user, field, 'ops, dev')).toEqual(['ops', 'dev']);
  });

  test('the question names the flag and what the model says of it', () => {
    const field = createMachineUser.service.requestFields(createMachineUser)[0];
    const q = field && questionFor(createMachineUser, field);
    expect(q?.type).toBe('input');
    expect(String(q?.message)).toMatch(/^--machine-user-name \(Name of the new machine user/);
  });
});

describe('asFlags and confirm', () => {
  test('a request reads as the command line that gives it, shortened after a few flags', () => {
    expect(asFlags(createGroup, { groupName: 'ops team', syncMembershipOnUserLogin: false })).toBe(
      "--group-name 'ops team' --no-sync-membership-on-user-login",
    );
    const user = createGroup.service.operation('createUser');
    expect(asFlags(user, { identityProviderUserId: 'j', email: 'j@x', firstName: 'J', lastName: 'D', groups: ['a'] })).toBe(
      '--identity-provider-user-id j --email j@x --groups a --first-name J …',
    );
  });

  test('only a person is asked to confirm; scripts go on as the official CLI does', async () => {
    expect(await confirm(bufferIO({ tty: false }).io, 'Delete?')).toBe(true);
    const yes = person([true]);
    expect(await confirm(yes.io, 'Delete?')).toBe(true);
    expect(yes.asked.map((q) => [q.type, q.message, q.initial])).toEqual([['confirm', 'Delete?', false]]);
    expect(await confirm(person([false]).io, 'Delete?')).toBe(false);
  });
});
