/** Field specs (model/shapes.ts): every shape of every service parses, and a default that is a sentence stays one attribute. */
import { describe, expect, test } from '@jest/globals';
import { loadAllServices } from '../../../src/lib/model/index.js';
import { parseSpec } from '../../../src/lib/model/shapes.js';

describe('field specs', () => {
  test('every shape of every service model parses', async () => {
    const failures: string[] = [];
    let parsed = 0;
    for (const svc of await loadAllServices()) {
      for (const name of svc.shapes.names()) {
        try {
          svc.shapes.get(name);
          parsed++;
        } catch (err) {
          failures.push(`${svc.name} ${name}: ${(err as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(parsed).toBeGreaterThan(1000);
  });

  test('a default written as a JSON string keeps its spaces and quotes, and the attributes after it', () => {
    const f = parseSpec('message', 'string default="step \\"prepare\\" triggered" deprecated');
    expect(f.default).toBe('step "prepare" triggered');
    expect(f.deprecated).toBe(true);
    expect(parseSpec('n', 'int32 default=5 min=1')).toMatchObject({ default: '5', min: 1 });
  });
});
