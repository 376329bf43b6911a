#!/usr/bin/env node
// cdpctl entry point. `--version` is answered without loading oclif: it is
// the most common health check in scripts and should cost no more than a
// node start. The command line is normalised as the official CLI reads it
// (global flags anywhere, `help` as the last word; src/lib/cli/argv.ts). A
// plain API operation, and help for the root, topics and API commands, run
// through the fast path (src/lib/cli/fast-run.ts, bundled into dist/fast/ by
// scripts/bundle.mjs) without oclif; hand-written commands and anything the
// fast path is unsure of go to oclif. CDPCTL_NO_FAST_PATH=1 sends everything
// to oclif (tests compare the two).
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The bundled fast path (scripts/bundle.mjs) when it is at least as new as tsc's output, else tsc's output. */
function fastPath() {
  const bundled = new URL('../dist/fast/fast-run.js', import.meta.url);
  const compiled = new URL('../dist/lib/cli/fast-run.js', import.meta.url);
  try {
    if (statSync(bundled).mtimeMs >= statSync(compiled).mtimeMs) return bundled.href;
  } catch {
    // No bundle: the compiled modules serve.
  }
  return compiled.href;
}

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version')) {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`cdpctl/${version} ${process.platform}-${process.arch} node-${process.version}\n`);
} else {
  const { fastRun, normalizeCommandLine } = await import(fastPath());
  const args = normalizeCommandLine(argv);
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (process.env.CDPCTL_NO_FAST_PATH === '1' || !(await fastRun(args, { root }))) {
    const { execute } = await import('@oclif/core');
    await execute({ args, dir: import.meta.url });
  }
}
