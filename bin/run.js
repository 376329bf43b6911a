#!/usr/bin/env node
// cdpctl entry point. `--version` is answered without loading oclif: it is
// the most common health check in scripts and should cost no more than a
// node start. Global flags given before the command are moved after it. A
// plain API operation runs through the fast path (dist/lib/cli/fast-run.js)
// without oclif; help, hand-written commands and anything the fast path is
// unsure of go to oclif.
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version')) {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`cdpctl/${version} ${process.platform}-${process.arch} node-${process.version}\n`);
} else {
  const { hoistGlobalFlags } = await import('../dist/lib/cli/argv.js');
  const args = hoistGlobalFlags(argv);
  const { fastRun } = await import('../dist/lib/cli/fast-run.js');
  if (!(await fastRun(args))) {
    const { execute } = await import('@oclif/core');
    await execute({ args, dir: import.meta.url });
  }
}
