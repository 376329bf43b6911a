#!/usr/bin/env node
// Development entry: builds nothing itself; run `npm run build` (or tsc -w) first.
// Same as run.js but with oclif's development settings.
const { execute } = await import('@oclif/core');
await execute({ development: true, dir: import.meta.url });
