/**
 * Opening a web page the way users expect of a command-line tool: `$BROWSER`
 * when it is set (as xdg-open and gh honour it), else the platform's opener
 * (xdg-open, open, start). No oclif, no output: the caller says what to do
 * when nothing could open the page.
 */
import { spawn } from 'node:child_process';
import type { Env } from './config.js';

/**
 * Splits one command line into words the way a POSIX shell would for plain
 * words, '…' and "…" quoting and backslash escapes; nothing is expanded.
 */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1] ?? '')) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * The commands to try, in order, each as argv with the URL in place.
 * `$BROWSER` is a list of commands separated by the path delimiter (as
 * xdg-open reads it); `%s` in a command stands for the URL, else the URL is
 * added as the last argument. Without it: `open` on macOS, `start` on
 * Windows, `xdg-open` elsewhere when there is a display to open a window on
 * (so that a remote shell is not handed a text browser).
 */
export function browserCommands(url: string, env: Env = process.env, platform: NodeJS.Platform = process.platform): string[][] {
  const given = env.BROWSER?.trim();
  if (given) {
    const delimiter = platform === 'win32' ? ';' : ':';
    return given
      .split(delimiter)
      .map((entry) => splitCommand(entry))
      .filter((words) => words.length > 0)
      .map((words) => (words.some((w) => w.includes('%s')) ? words.map((w) => w.replace(/%s/g, url)) : [...words, url]));
  }
  if (platform === 'darwin') return [['open', url]];
  if (platform === 'win32') return [['cmd', '/c', 'start', '""', `"${url}"`]];
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return [['xdg-open', url]];
  return [];
}

export interface OpenResult {
  /** Some command started (it may still fail later: see onFailure). */
  readonly started: boolean;
}

/**
 * Starts the first command of browserCommands() that can be started,
 * detached from this process. A command that exits unsuccessfully passes the
 * turn to the next one; onFailure runs once when none is left (at once when
 * none could be started, so the caller can show the URL instead).
 */
export function openBrowser(
  url: string,
  opts: { env?: Env; platform?: NodeJS.Platform; onFailure?: () => void } = {},
): Promise<OpenResult> {
  const platform = opts.platform ?? process.platform;
  const commands = browserCommands(url, opts.env ?? process.env, platform);
  let failed = false;
  const fail = (): void => {
    if (failed) return;
    failed = true;
    opts.onFailure?.();
  };
  return new Promise<OpenResult>((resolve) => {
    let answered = false;
    const answer = (started: boolean): void => {
      if (answered) return;
      answered = true;
      resolve({ started });
    };
    const attempt = (i: number): void => {
      const argv = commands[i];
      if (!argv) {
        fail();
        answer(false);
        return;
      }
      const [cmd = '', ...args] = argv;
      let child;
      try {
        child = spawn(cmd, args, {
          detached: platform !== 'win32',
          stdio: 'ignore',
          env: { ...(opts.env ?? process.env) } as NodeJS.ProcessEnv,
          windowsVerbatimArguments: platform === 'win32' && cmd === 'cmd',
        });
      } catch {
        attempt(i + 1);
        return;
      }
      let passed = false;
      const next = (): void => {
        if (passed) return;
        passed = true;
        attempt(i + 1);
      };
      child.once('error', next);
      child.once('spawn', () => {
        answer(true);
        child.unref();
      });
      child.once('exit', (code, signal) => {
        if (code !== 0 || signal) next();
      });
    };
    attempt(0);
  });
}
