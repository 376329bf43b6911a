/**
 * Runs a command in a pseudo-terminal so cdpctl sees a person at a TTY.
 * Uses util-linux `script` (stdin, stdout and stderr of the child are the
 * pty); the test waits for text to appear and types keys, like expect(1).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

export const KEYS = {
  enter: '\r',
  down: '\u001b[B',
  up: '\u001b[A',
  ctrlC: '\u0003',
} as const;

/** Whether this machine can run the pty tests (`script` from util-linux). */
export function ptyAvailable(): boolean {
  const r = spawnSync('script', ['--version'], { encoding: 'utf8' });
  return r.status === 0 && /util-linux/.test(r.stdout + r.stderr);
}

const shq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b[()][A-Z0-9]|\r/g;

/** Output with terminal escapes and carriage returns removed. */
export const plain = (s: string): string => s.replace(ANSI, '');

export interface PtySession {
  /** Everything the terminal showed so far (raw, with escapes). */
  readonly output: () => string;
  /** Resolves when the plain output (from `from` on) matches; rejects after timeoutMs. */
  expect(pattern: string | RegExp, timeoutMs?: number): Promise<void>;
  type(keys: string): void;
  /** Resolves with the exit code once the command ends. */
  exit(timeoutMs?: number): Promise<number>;
  kill(): void;
}

export function spawnPty(
  argv: readonly string[],
  opts: { env: Record<string, string | undefined>; cwd?: string; columns?: number; rows?: number },
): PtySession {
  const env: Record<string, string | undefined> = { ...opts.env, TERM: opts.env.TERM ?? 'xterm-256color' };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const cmd = `stty cols ${opts.columns ?? 100} rows ${opts.rows ?? 40} 2>/dev/null; exec ${argv.map(shq).join(' ')}`;
  const child: ChildProcess = spawn('script', ['-qfec', cmd, '/dev/null'], {
    env: env as NodeJS.ProcessEnv,
    cwd: opts.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let code: number | undefined;
  const listeners = new Set<() => void>();
  const notify = (): void => listeners.forEach((l) => l());
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString('utf8');
    notify();
  });
  child.stderr?.on('data', (c: Buffer) => {
    out += c.toString('utf8');
    notify();
  });
  child.stdin?.on('error', () => undefined);
  child.on('close', (c, signal) => {
    code = c ?? (signal ? 128 : 1);
    notify();
  });
  const until = (test: () => boolean, timeoutMs: number, what: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (test()) {
          cleanup();
          resolve();
        } else if (code !== undefined) {
          cleanup();
          reject(new Error(`command ended (${code}) before ${what}; terminal showed:\n${plain(out)}`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${what}; terminal showed:\n${plain(out)}`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });
  return {
    output: () => out,
    expect: (pattern, timeoutMs = 20_000) =>
      until(() => (typeof pattern === 'string' ? plain(out).includes(pattern) : pattern.test(plain(out))), timeoutMs, String(pattern)),
    type: (keys) => {
      child.stdin?.write(keys);
    },
    exit: async (timeoutMs = 20_000) => {
      await until(() => code !== undefined, timeoutMs, 'exit');
      return code ?? 1;
    },
    kill: () => {
      if (code === undefined) child.kill('SIGKILL');
    },
  };
}
