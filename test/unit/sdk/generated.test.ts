/** The library's generated types and catalog are exactly what the model generates (scripts/gen-sdk.mjs). */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../helpers/cli.js';

describe('the generated half of the library', () => {
  it('regenerating src/lib/sdk/services, catalog.ts and services.ts from the model changes nothing', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/gen-sdk.mjs'), '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/21 generated library files are up to date/);
  });
});
