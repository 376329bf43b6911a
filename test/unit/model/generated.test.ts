/** The generated half of every service model is exactly what its facts generate (octokit's "regenerating changes nothing"). */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../helpers/cli.js';

describe('generated models', () => {
  it('regenerating wire.ts from src/lib/model/facts changes nothing', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/gen-model.mjs'), '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/19 generated models are up to date/);
  });
});
