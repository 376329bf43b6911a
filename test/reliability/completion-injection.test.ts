/**
 * Completion offers data, never code: a profile named `` zb$(touch pwned) ``
 * or `*` (profile names are whatever a credentials file says) is offered
 * quoted, so TAB then Enter passes the name as it is: nothing runs, nothing
 * is glob-expanded. Driven through real interactive bash and zsh in a
 * terminal, as a person types: TAB, then Enter; `cdpctl` there is a shell
 * function that asks the real binary for candidates and otherwise prints
 * the words it was given.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, baseEnv, tempHome } from '../helpers/cli.js';
import { plain, ptyAvailable, spawnPty } from '../helpers/pty.js';

const homes: string[] = [];
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));

/** A HOME whose credentials hold one profile of this name, and a working directory with two files in it. */
function setUp(profile: string): { home: string; cwd: string } {
  const home = tempHome('cdpctl-complete-');
  homes.push(home);
  mkdirSync(join(home, '.cdp'));
  writeFileSync(join(home, '.cdp', 'credentials'), `[${profile}]\ncdp_access_key_id = a\n`);
  const cwd = join(home, 'work');
  mkdirSync(cwd);
  writeFileSync(join(cwd, 'a.txt'), '');
  writeFileSync(join(cwd, 'b.txt'), '');
  return { home, cwd };
}

const SHELLS = {
  bash: { argv: ['bash', '--norc', '--noprofile', '-i'], init: [] as string[] },
  zsh: { argv: ['zsh', '-f', '-i'], init: ['autoload -Uz compinit && compinit -u -d "$HOME/.zcompdump"'] },
} as const;

const installed = (shell: string): boolean => spawnSync(shell, ['--version']).status === 0;

/** Types `cdpctl --profile <typed><TAB>`, then Enter; resolves with the words cdpctl was run with. */
async function tabThenEnter(shell: keyof typeof SHELLS, profile: string, typed: string): Promise<{ words: string[]; cwd: string }> {
  const { home, cwd } = setUp(profile);
  const s = spawnPty(SHELLS[shell].argv, { env: { ...baseEnv(home), CI: undefined, PS1: '$ ', PROMPT: '$ ' }, cwd });
  try {
    const lines = [
      ...SHELLS[shell].init,
      `cdpctl() { case "$1" in __complete|autocomplete) command '${process.execPath}' '${BIN}' "$@";; *) printf 'WORD<%s>\\n' "$@"; echo DO""NE;; esac; }`,
      'eval "$(cdpctl autocomplete ' + shell + ')"',
      'echo RE""ADY',
    ];
    for (const line of lines) s.type(`${line}\r`);
    await s.expect(/\nREADY/);
    s.type(`cdpctl --profile ${typed}\t`);
    // The shell has put what completion offered on the line (or, given several, offered nothing yet).
    await s.expect(shell === 'bash' ? /--profile \S+\s*$/ : /--profile \S+/, 20_000).catch(() => undefined);
    s.type('\r');
    await s.expect(/\nDONE/);
    // What the run printed (after the setup lines the terminal echoed).
    const printed = plain(s.output()).split('\nREADY').pop() ?? '';
    const words = [...printed.matchAll(/WORD<([^>\n]*)>/g)].map((m) => m[1] ?? '');
    return { words, cwd };
  } finally {
    s.kill();
  }
}

const describePty = ptyAvailable() ? describe : describe.skip;

describePty.each(Object.keys(SHELLS) as Array<keyof typeof SHELLS>)('%s', (shell) => {
  const run = installed(shell) ? test : test.skip;

  run(
    'a profile named zb$(touch pwned) is completed quoted: TAB then Enter runs nothing',
    async () => {
      const { words, cwd } = await tabThenEnter(shell, 'zb$(touch pwned)', 'zb');
      expect(existsSync(join(cwd, 'pwned'))).toBe(false);
      expect(words).toEqual(['--profile', 'zb$(touch pwned)']);
    },
    60_000,
  );

  run(
    'a profile named * is completed as itself, never as the files of the directory',
    async () => {
      const { words } = await tabThenEnter(shell, '*', '');
      expect(words).toEqual(['--profile', '*']);
    },
    60_000,
  );
});
