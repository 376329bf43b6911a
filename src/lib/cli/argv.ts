/**
 * Lets global flags come before the command, as with the official CLI
 * (`cdpctl --profile prod iam users list`): oclif wants the command id first,
 * so leading global flags are moved after it. Kept free of imports: it runs
 * before anything else is loaded.
 */

/** Global flags and whether they take a value. A unit test keeps this in step with flags.ts. */
export const GLOBAL_FLAG_ARITY: Readonly<Record<string, 0 | 1>> = {
  '--profile': 1,
  '--endpoint-url': 1,
  '--cdp-region': 1,
  '--output': 1,
  '-o': 1,
  '--query': 1,
  '--debug': 0,
  '--no-verify-tls': 0,
  '--ca-bundle': 1,
  '--cli-read-timeout': 1,
  '--cli-connect-timeout': 1,
  '--color': 1,
  '--no-pager': 0,
  '--no-input': 0,
  '--yes': 0,
  '-y': 0,
};

export function hoistGlobalFlags(argv: readonly string[]): string[] {
  const moved: string[] = [];
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i] ?? '';
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    const arity = GLOBAL_FLAG_ARITY[name];
    if (arity === undefined) break;
    const take = arg.includes('=') ? 1 : 1 + arity;
    moved.push(...argv.slice(i, i + take));
    i += take;
  }
  if (moved.length === 0 || i >= argv.length) return [...argv];
  return [...argv.slice(i), ...moved];
}
