#!/usr/bin/env node
// Development entry: builds nothing itself; run `npm run build` (or tsc -w) first.
// Same as run.js but with oclif's development settings (CommonJS, as bin/package.json says).
'use strict';
const { join } = require('node:path');

require('@oclif/core').execute({ development: true, dir: join(__dirname, '..') });
