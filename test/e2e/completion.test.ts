/**
 * Shell completion from @oclif/plugin-autocomplete with the explicit command
 * strategy and our manifest: topics, commands, flags, and (zsh) enum values
 * from the flags' `options`. The bash script is also run: its completion
 * function is called the way bash calls it.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { run, tempHome } from '../helpers/cli.js';

let home: string;
let bashScript: string;
let zshScript: string;
let bashFile: string;

beforeAll(async () => {
  home = tempHome('cdpctl-completion-');
  const env = { XDG_CACHE_HOME: join(home, '.cache') };
  const r = await run(['autocomplete', '--refresh-cache'], { home, env });
  expect(r.code).toBe(0);
  const dir = join(home, '.cache', 'cdpctl', 'autocomplete', 'functions');
  bashFile = join(dir, 'bash', 'cdpctl.bash');
  bashScript = readFileSync(bashFile, 'utf8');
  zshScript = readFileSync(join(dir, 'zsh', '_cdpctl'), 'utf8');
});

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('cdpctl autocomplete', () => {
  test.each(['bash', 'zsh'])('%s prints the setup', async (shell) => {
    const r = await run(['autocomplete', shell], { home, env: { XDG_CACHE_HOME: join(home, '.cache') } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`cdpctl autocomplete script ${shell}`);
    const script = await run(['autocomplete', 'script', shell], { home, env: { XDG_CACHE_HOME: join(home, '.cache') } });
    expect(script.code).toBe(0);
    expect(script.stdout).toContain(`autocomplete/${shell}_setup`);
  });
});

describe('the bash completion script', () => {
  test('lists topics, commands and flags', () => {
    expect(bashScript).toContain('iam:users:create ');
    expect(bashScript).toMatch(/^iam:users:list .*--output/m);
    expect(bashScript).toContain('complete -F _cdpctl_autocomplete cdpctl');
  });

  test('is valid bash', () => {
    const r = spawnSync('bash', ['-n', bashFile], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  const complete = (words: string[]): string[] => {
    const quoted = words.map((w) => `'${w}'`).join(' ');
    const script = `source '${bashFile}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _cdpctl_autocomplete; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
    return [...new Set(r.stdout.split('\n').filter(Boolean))];
  };

  test('completes topics, resources, verbs and flags the way bash asks', () => {
    expect(complete(['cdpctl', ''])).toEqual(expect.arrayContaining(['iam', 'emulator', 'configure', 'api']));
    expect(complete(['cdpctl', 'iam', 'us'])).toEqual(['users']);
    expect(complete(['cdpctl', 'iam', 'users', ''])).toEqual(expect.arrayContaining(['create', 'list', 'delete']));
    expect(complete(['cdpctl', 'iam', 'users', 'list', '--ou'])).toEqual(['--output']);
    expect(complete(['cdpctl', 'iam', 'users', 'create', '--em'])).toEqual(['--email']);
  });
});

describe('the zsh completion script', () => {
  test('lists topics, commands, flags and enum values', () => {
    expect(zshScript.startsWith('#compdef cdpctl')).toBe(true);
    expect(zshScript).toMatch(/"iam\[/);
    expect(zshScript).toMatch(/"users\[/);
    expect(zshScript).toMatch(/"create\[/);
    expect(zshScript).toContain('--output');
    // Enum values come from the flags' options: the global --output and a model enum.
    expect(zshScript).toContain('(json yaml table text tsv jsonl)');
    expect(zshScript).toContain('(ACTIVE INACTIVE)');
  });
});
