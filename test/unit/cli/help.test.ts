/**
 * The help renderer (src/lib/cli/help.ts) and its layout helpers: what a
 * new user reads. Required flags stand in USAGE without brackets, no flag
 * name is ever broken across lines, the summary is not repeated under
 * DESCRIPTION, the cdp name of the command is there, and the --wait sentence
 * says what really ends the wait. Every operation of the model is rendered.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import {
  buildHelpIndex,
  cdpEquivalent,
  helpFor,
  helpWords,
  renderOperationHelp,
  renderRootHelp,
  renderTopicHelp,
  waitSentence,
  type HelpContext,
  type HelpIndex,
} from '../../../src/lib/cli/help.js';
import { helpWidth, shellWords, synopsisUnits, twoColumns, wrap, wrapCommand, wrapSynopsis } from '../../../src/lib/cli/help-text.js';
import { operationFlagSpecs } from '../../../src/lib/cli/flag-spec.js';
import { loadAllServices, loadService, type Operation, type Service } from '../../../src/lib/model/index.js';

let services: Service[] = [];
let ops: Operation[] = [];
let index: HelpIndex;
const ctx = (width = 80): HelpContext => ({ bin: 'cdpctl', width, index: () => index });

beforeAll(async () => {
  services = await loadAllServices();
  ops = services.flatMap((s) => s.operations());
  const topics: Record<string, string> = { emulator: 'A local control plane.' };
  for (const s of services) {
    topics[s.topic] = s.def.summary;
    for (const [id, d] of Object.entries(s.def.topics)) topics[`${s.topic} ${id.replace(/:/g, ' ')}`] = d;
  }
  index = buildHelpIndex(
    { version: '9.9.9', description: 'A test build' },
    [
      ...ops.map((op) => ({ id: op.commandId, summary: op.cli.summary, hidden: Boolean(op.cli.hidden || op.wire.deprecated), own: false })),
      { id: 'configure', summary: 'Set up a profile.', hidden: false, own: true },
      { id: 'emulator start', summary: 'Start the emulator.', hidden: false, own: true },
      { id: 'secret', summary: 'Not listed.', hidden: true, own: true },
    ],
    topics,
  );
});

/** The lines of a section (heading to the next blank line followed by a heading). */
function sectionOf(text: string, heading: string): string {
  const at = text.indexOf(`\n${heading}\n`);
  if (at < 0) return '';
  const rest = text.slice(at + heading.length + 2);
  const end = rest.search(/\n\n[A-Z][A-Z ]+\n/);
  return end < 0 ? rest : rest.slice(0, end);
}

describe('layout', () => {
  test('words are never broken, and lines keep to the width where they can', () => {
    const text = wrap(
      'a '.repeat(50) + 'https://a.very.long.example.com/with/a/path/that/is/longer/than/the/line ' + 'b '.repeat(10),
      40,
      2,
    );
    for (const line of text.split('\n')) expect(line.length <= 40 || !line.trim().includes(' ')).toBe(true);
    expect(text).toContain('https://a.very.long.example.com/with/a/path/that/is/longer/than/the/line');
  });

  test('two columns: long left entries put their text on the next line, aligned', () => {
    const out = twoColumns(
      [
        ['--short', 'one two three four five six seven eight nine ten eleven twelve'],
        ['--a-very-long-flag-name-that-will-not-fit <structure>', 'text'],
      ],
      40,
      { maxLeft: 12 },
    ).split('\n');
    // The left column is as wide as its widest entry that fits (--short); the text starts 2 further.
    expect(out[0]).toMatch(/^ {2}--short {2}one two/);
    expect(out[1]).toMatch(/^ {11}\S/);
    expect(out).toContain('  --a-very-long-flag-name-that-will-not-fit <structure>');
    expect(out[out.length - 1]).toBe(' '.repeat(11) + 'text');
  });

  test('a synopsis breaks between units only: a flag stays with its value, brackets stay whole', () => {
    const units = synopsisUnits('[--profile <value>] [--generate-skeleton [input|output]] --email <string> [flags]');
    expect(units).toEqual(['[--profile <value>]', '[--generate-skeleton [input|output]]', '--email <string>', '[flags]']);
    const text = wrapSynopsis(['$', 'cdpctl', 'x', ...units, ...units], 30);
    for (const u of units) expect(text.replace(/\n\s+/g, ' ')).toContain(u);
    for (const line of text.split('\n')) expect(line).not.toMatch(/--[\w-]+$/);
  });

  test('a long command line is continued with " \\" before a flag, quoted values kept whole', () => {
    expect(shellWords(`cdpctl x --a '{"k": "v w"}' --b "two words" --c`)).toEqual([
      'cdpctl',
      'x',
      '--a',
      `'{"k": "v w"}'`,
      '--b',
      '"two words"',
      '--c',
    ]);
    const text = wrapCommand(
      `$ cdpctl iam users create --email a@example.com --tags '{"a b": "c d"}' --first-name Jane --last-name Doe`,
      50,
    );
    const lines = text.split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(0, -1)) expect(line.endsWith(' \\')).toBe(true);
    for (const line of lines.slice(1)) expect(line.trimStart().startsWith('--')).toBe(true);
    expect(text).toContain(`--tags '{"a b": "c d"}'`);
  });

  test('the width: $COLUMNS, else a terminal, else 80, within 40..120', () => {
    expect(helpWidth({}, () => ({}))).toBe(80);
    expect(helpWidth({ COLUMNS: '100' }, () => ({}))).toBe(100);
    expect(helpWidth({ COLUMNS: '20' }, () => ({}))).toBe(40);
    expect(helpWidth({}, () => ({ isTTY: true, columns: 200 }))).toBe(120);
    expect(helpWidth({}, () => ({ isTTY: true, columns: 90 }))).toBe(90);
  });
});

describe('what help shows for', () => {
  test('which words ask for what', () => {
    expect(helpWords(['iam', 'users', 'create', '--help', '--profile', 'x'])).toEqual(['iam', 'users', 'create']);
    expect(helpWords(['help', 'iam', 'users'])).toEqual(['iam', 'users']);
    expect(helpWords(['--help'])).toEqual([]);
  });

  test('the root lists every service and cdpctl own visible commands, with the global flags', () => {
    const text = renderRootHelp(ctx());
    for (const s of services) expect(text).toMatch(new RegExp(`^  ${s.topic} `, 'm'));
    expect(text).toMatch(/^ {2}configure {2,}Set up a profile\.$/m);
    expect(text).toContain('emulator start');
    expect(text).not.toMatch(/^ {2}secret /m);
    expect(text).toContain('-o, --output <json|yaml|table|text|tsv|jsonl>');
    expect(text).toContain('VERSION\n  cdpctl/9.9.9 ');
  });

  test('a topic lists its direct sub-topics and commands, and hides hidden and deprecated ones', async () => {
    const iam = await loadService('iam');
    const text = renderTopicHelp('iam users', ctx(), iam);
    expect(text.split('\n')[0]).toBe('Users who sign in through an identity provider.');
    expect(text).toContain('$ cdpctl iam users COMMAND [flags]');
    expect(text).toMatch(/^ {2}iam users create {2,}Create a user/m);
    const service = renderTopicHelp('iam', ctx(), iam);
    expect(service).toMatch(/^TOPICS\n/m);
    expect(service).toContain('iam users ');
    expect(service).not.toContain('iam users create');
    const hidden = ops.find((op) => op.wire.deprecated || op.cli.hidden);
    if (hidden) {
      const parent = hidden.commandId.split(' ').slice(0, -1).join(' ');
      expect(renderTopicHelp(parent, ctx())).not.toContain(`  ${hidden.commandId} `);
    }
  });

  test('an API command, its alias and the help command all give the command help; own commands are left to oclif', async () => {
    const viaId = await helpFor(['iam', 'users', 'create', '--help'], ctx());
    expect(await helpFor(['iam', 'create-user', '--help'], ctx())).toBe(viaId);
    expect(await helpFor(['help', 'iam', 'users', 'create'], ctx())).toBe(viaId);
    expect(await helpFor(['cloudprivatelinks', '--help'], ctx())).toBe(await helpFor(['privatelink'], ctx()));
    expect(await helpFor(['configure', '--help'], ctx())).toBeUndefined();
    expect(await helpFor(['iam', 'nothing-here'], ctx())).toBeUndefined();
    expect(await helpFor(['emulator'], ctx())).toContain('emulator start');
    expect(await helpFor([], ctx())).toBe(renderRootHelp(ctx()));
  });
});

describe('the help of an API command', () => {
  test('iam users create: required flags first and bare in USAGE, the cdp name, the summary once', async () => {
    const op = (await loadService('iam')).findByCommand('iam users create')!;
    const text = renderOperationHelp(op, ctx());
    expect(text.startsWith('Create a user who signs in through an identity provider.\n\nUSAGE\n')).toBe(true);
    const usage = sectionOf(text, 'USAGE').replace(/\n\s+/g, ' ');
    expect(usage).toBe('  $ cdpctl iam users create --email <string> --identity-provider-user-id <string> [flags]');
    const flags = sectionOf(text, 'FLAGS').split('\n');
    expect(flags[0]).toMatch(/^ {2}--email <string> +\(required\) /);
    expect(flags.findIndex((l) => l.includes('--identity-provider-user-id'))).toBeLessThan(
      flags.findIndex((l) => l.includes('--first-name')),
    );
    expect(text).toContain('--groups <string>...');
    const description = sectionOf(text, 'DESCRIPTION');
    expect(description).not.toContain(op.cli.summary);
    expect(description).toContain('API: iam createUser (POST /iam/createUser)');
    expect(description).toContain('cdp equivalent: cdp iam create-user');
    expect(text.split(op.cli.summary).length).toBe(2);
    expect(sectionOf(text, 'EXAMPLES')).toContain('$ cdpctl iam users create --identity-provider-user-id jdoe');
    expect(sectionOf(text, 'GLOBAL FLAGS')).toContain('--profile');
  });

  test('a service whose cdp name differs: the cdp equivalent uses the wire name', async () => {
    const op = (await loadService('privatelink')).operations().find((o) => !o.wire.deprecated)!;
    expect(renderOperationHelp(op, ctx())).toContain(`cdp equivalent: cdp cloudprivatelinks `);
  });

  test('the --wait sentence says what ends the wait', async () => {
    const terminate = (await loadService('dataflow')).findByCommand('dataflow deployments terminate')!;
    expect(terminate.cli.wait?.goneIsSuccess).toBe(true);
    // It reads the state from another service (df), and the deployment may be gone by then.
    expect(waitSentence(terminate)).toBe(
      'With --wait, polls df describeDeployment until the state is TERMINATED, or until it answers NOT_FOUND (the resource is gone).',
    );
    expect(renderOperationHelp(terminate, ctx())).toContain('NOT_FOUND');
    // A waiter whose state is a constant that is no success state can end only by the resource being gone.
    const constant = {
      ...terminate,
      cli: { ...terminate.cli, wait: { ...terminate.cli.wait!, service: undefined, state: "'TERMINATING'" } },
    };
    const sentence = waitSentence(constant)!;
    expect(sentence).toContain('polls describeDeployment until it answers NOT_FOUND (the resource is gone)');
    expect(sentence).not.toContain('TERMINATED');
    // A delete that may also end on a state says both.
    const both = ops.find((op) => op.cli.wait?.goneIsSuccess && !/^'/.test(op.cli.wait.state))!;
    expect(waitSentence(both)).toMatch(/until the state is .+, or until it answers NOT_FOUND/);
    const plain = ops.find((op) => op.cli.wait && !op.cli.wait.goneIsSuccess && op.cli.wait.failure?.length)!;
    expect(waitSentence(plain)).toMatch(/until the state is .+ \(exit 5 on .+\)\.$/);
  });

  test('every operation: every flag whole on one line, required flags bare in USAGE, no summary under DESCRIPTION', () => {
    const problems: string[] = [];
    for (const width of [80, 60]) {
      for (const op of ops) {
        const text = renderOperationHelp(op, ctx(width));
        const lines = text.split('\n');
        for (const name of Object.keys(operationFlagSpecs(op))) {
          if (!new RegExp(`(^|[\\s/])--${name}(?![\\w-])`, 'm').test(text))
            problems.push(`${op.commandId} (${width}): --${name} is not whole`);
        }
        if (lines.some((l) => /(^|\s)--?$/.test(l) || /--[\w-]*-$/.test(l))) problems.push(`${op.commandId} (${width}): a flag is broken`);
        const usage = sectionOf(text, 'USAGE');
        if (/\[--[^\]]*\]/.test(usage)) problems.push(`${op.commandId} (${width}): a bracketed flag in USAGE`);
        if (sectionOf(text, 'DESCRIPTION').includes(op.cli.summary)) problems.push(`${op.commandId}: summary repeated`);
        const flat = text.replace(/\s+/g, ' ');
        if (!flat.includes(`API: ${op.service.name} ${op.name} `)) problems.push(`${op.commandId}: no API line`);
        if (!flat.includes(`cdp equivalent: ${cdpEquivalent(op)}`)) problems.push(`${op.commandId}: no cdp equivalent`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the help index', () => {
  test('lists visible commands, topics that have some, and every own command', () => {
    expect(index.commands['iam users create']).toEqual(expect.any(String));
    expect(index.commands.secret).toBeUndefined();
    expect(index.own).toEqual(['configure', 'emulator start', 'secret']);
    for (const t of Object.keys(index.topics)) expect(Object.keys(index.commands).some((c) => c.startsWith(`${t} `))).toBe(true);
    const hidden = ops.filter((op) => op.cli.hidden || op.wire.deprecated);
    for (const op of hidden) expect(index.commands[op.commandId]).toBeUndefined();
  });
});
