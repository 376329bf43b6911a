/**
 * TAB completion driven through the shells themselves: the script
 * `cdpctl autocomplete <shell>` prints is loaded into bash (and zsh, where
 * installed: CI installs it), a command line is put where the shell puts it,
 * and the candidates the shell would offer are read back.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, baseEnv } from '../helpers/cli.js';

let home: string;
let env: Record<string, string>;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'cdpctl-complete-'));
  const bin = join(home, 'bin');
  mkdirSync(bin);
  // The shells find `cdpctl` on PATH, as after an install.
  writeFileSync(join(bin, 'cdpctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'cdpctl'), 0o755);
  mkdirSync(join(home, '.cdp'));
  writeFileSync(join(home, '.cdp', 'credentials'), '[default]\ncdp_access_key_id = a\n\n[prod]\ncdp_access_key_id = b\n');
  writeFileSync(join(home, '.cdp', 'config'), '[profile staging]\ncdp_region = eu-1\n');
  env = { ...baseEnv(home), PATH: `${bin}:${process.env.PATH ?? ''}` };
});

afterAll(() => rmSync(home, { recursive: true, force: true }));

/** What bash offers for the line (the cursor at its end). */
function bash(line: string): string[] {
  const script = [
    'eval "$(cdpctl autocomplete bash)"',
    'COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}',
    'read -ra COMP_WORDS <<< "$COMP_LINE"; [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")',
    'COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))',
    '_cdpctl_complete',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const out = execFileSync('bash', ['-c', script, 'bash', line], { env, encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

describe('bash', () => {
  test('the script is what `autocomplete bash` prints off a terminal (inside `$(...)`)', () => {
    const script = execFileSync('cdpctl', ['autocomplete', 'bash'], { env, encoding: 'utf8' });
    expect(script).toContain('complete -o default -o bashdefault -F _cdpctl_complete cdpctl');
    expect(spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' }).status).toBe(0);
  });

  test('both command forms: the official list-u<TAB> and the resource form', () => {
    expect(bash('cdpctl iam list-u')).toEqual(['list-user-assigned-resource-roles', 'list-user-assigned-roles', 'list-users']);
    expect(bash('cdpctl iam users l')).toEqual(['list', 'list-groups', 'list-resource-roles', 'list-roles']);
    expect(bash('cdpctl datalake describe-d')).toEqual(['describe-database-server', 'describe-datalake']);
  });

  test('the official service names, and cdpctl own commands', () => {
    expect(bash('cdpctl dfw')).toEqual(['dfworkload']);
    expect(bash('cdpctl dfworkload list-deployment-a')).toEqual(['list-deployment-archives']);
    expect(bash('cdpctl cloudp')).toEqual(['cloudprivatelinks']);
    expect(bash('cdpctl emulator st')).toEqual(['start', 'status', 'stop']);
    expect(bash('cdpctl ')).toEqual(expect.arrayContaining(['iam', 'dw', 'lakehouse', 'lakehouseopt', 'emulator', 'configure', 'login']));
  });

  test('flags, and the values of flags with a fixed set: enums of the model, --output, profiles', () => {
    expect(bash('cdpctl iam list-users --max')).toEqual(['--max-items']);
    expect(bash('cdpctl iam users create --em')).toEqual(['--email']);
    expect(bash('cdpctl environments list --output ')).toEqual(['json', 'jsonl', 'table', 'text', 'tsv', 'yaml']);
    expect(bash('cdpctl environments create-aws-environment --endpoint-access-gateway-scheme ')).toEqual(['PRIVATE', 'PUBLIC']);
    expect(bash('cdpctl ml create-workspace --provision-k8s-request ')).toEqual([]);
    expect(bash('cdpctl iam users list --profile ')).toEqual(['default', 'prod', 'staging']);
    expect(bash('cdpctl --profile prod iam us')).toEqual(['users']);
    expect(bash('cdpctl emulator start --time')).toEqual(['--time-scale']);
  });

  test('nothing after a whole command but its flags; a flag given is not offered again', () => {
    expect(bash('cdpctl iam users list x')).toEqual([]);
    expect(bash('cdpctl iam users list --max-items 3 --max')).toEqual([]);
  });
});

const zsh = spawnSync('zsh', ['--version']).status === 0;
(zsh ? describe : describe.skip)('zsh', () => {
  /** What zsh offers for the line, read through a completion widget of a test's own. */
  function complete(line: string): string[] {
    const script = [
      'autoload -Uz compinit && compinit -u -d "$HOME/.zcompdump"',
      'eval "$(cdpctl autocomplete zsh)"',
      // compadd is a completion builtin; stand in for it to read what the function offers.
      'compadd() { while [[ "$1" == -* ]]; do [[ "$1" == "--" ]] && { shift; break; }; shift; done; print -l -- "$@"; }',
      '_files() { print -- "<files>"; }',
      'words=(${(z)1}); [[ "$1" == *" " ]] && words+=("")',
      'CURRENT=${#words}',
      '_cdpctl_complete',
    ].join('\n');
    const out = execFileSync('zsh', ['-f', '-c', script, 'zsh', line], { env, encoding: 'utf8' });
    return out.split('\n').filter(Boolean);
  }

  test('the same answers: both forms, service names, enum values', () => {
    expect(complete('cdpctl iam list-u')).toEqual(['list-user-assigned-resource-roles', 'list-user-assigned-roles', 'list-users']);
    expect(complete('cdpctl dfworkload ')).toContain('list-deployment-archives');
    expect(complete('cdpctl environments list --output ')).toEqual(['json', 'jsonl', 'table', 'text', 'tsv', 'yaml']);
    expect(complete('cdpctl environments list --output=t')).toEqual(['--output=table', '--output=text', '--output=tsv']);
    expect(complete('cdpctl iam users list --input ')).toEqual(['<files>']);
  });
});
