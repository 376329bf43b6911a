/**
 * The store's documents read by id are kept parsed between requests; these
 * pin that what is kept never differs from what is stored: readers get
 * copies, every write and a rolled-back transaction drop what was kept, and
 * a key "__proto__" stays a field.
 */
import { describe, expect, test } from '@jest/globals';
import { Store } from '../../../src/lib/emulator/store.js';

interface Doc {
  name: string;
  tags: string[];
  nested: { n: number };
}

const fresh = (): Store => {
  const s = new Store(':memory:', 'acct');
  s.put('k', 'a', { name: 'a', tags: ['x'], nested: { n: 1 } }, { name: 'a', crn: 'crn:a' });
  return s;
};

describe('documents read by id', () => {
  test('every read is a copy: changing what was read changes neither the store nor the next read', () => {
    const s = fresh();
    const first = s.get<Doc>('k', 'a');
    expect(first).toEqual({ name: 'a', tags: ['x'], nested: { n: 1 } });
    if (!first) throw new Error('no document');
    first.name = 'changed';
    first.tags.push('y');
    first.nested.n = 2;
    expect(s.get<Doc>('k', 'a')).toEqual({ name: 'a', tags: ['x'], nested: { n: 1 } });
    expect(s.get<Doc>('k', 'a')).not.toBe(s.get<Doc>('k', 'a'));
    // Reads by name and CRN give copies of the same document.
    const byName = s.getByName<Doc>('k', 'A');
    const byCrn = s.getByCrn<Doc>('crn:a');
    expect(byName).toEqual(byCrn?.doc);
    if (byName) byName.nested.n = 9;
    expect(s.getByCrn<Doc>('crn:a')?.doc.nested.n).toBe(1);
  });

  test('a put or a delete is seen by the next read', () => {
    const s = fresh();
    s.get('k', 'a');
    s.put('k', 'a', { name: 'b', tags: [], nested: { n: 3 } });
    expect(s.get<Doc>('k', 'a')?.nested.n).toBe(3);
    s.delete('k', 'a');
    expect(s.get('k', 'a')).toBeUndefined();
  });

  test('a transaction that fails leaves no trace of what it wrote, read or not', () => {
    const s = fresh();
    expect(() =>
      s.transaction(() => {
        s.put('k', 'a', { name: 'a', tags: [], nested: { n: 7 } });
        // Read inside the transaction: kept from the uncommitted row.
        expect(s.get<Doc>('k', 'a')?.nested.n).toBe(7);
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(s.get<Doc>('k', 'a')?.nested.n).toBe(1);
  });

  test('reset and restore drop what was kept', () => {
    const s = fresh();
    s.get('k', 'a');
    const dump = s.dump();
    s.reset();
    expect(s.get('k', 'a')).toBeUndefined();
    s.restore(dump);
    expect(s.get<Doc>('k', 'a')?.nested.n).toBe(1);
    s.restore({ docs: dump.docs.map((d) => ({ ...d, body: JSON.stringify({ name: 'a', tags: [], nested: { n: 5 } }) })), meta: {} });
    expect(s.get<Doc>('k', 'a')?.nested.n).toBe(5);
  });

  test('a key named __proto__ is read back as a field, not as the prototype', () => {
    const s = new Store(':memory:', 'acct');
    s.put('k', 'p', JSON.parse('{"tags":{"__proto__":{"polluted":true}}}') as unknown);
    for (let i = 0; i < 2; i++) {
      const doc = s.get<{ tags: Record<string, unknown> }>('k', 'p');
      expect(Object.keys(doc?.tags ?? {})).toEqual(['__proto__']);
      expect(Object.getPrototypeOf(doc?.tags)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  test('many documents read once each: all read back right (what is kept is bounded, the oldest dropped)', () => {
    const s = new Store(':memory:', 'acct');
    for (let i = 0; i < 5000; i++) s.put('k', `d${i}`, { i });
    for (let i = 0; i < 5000; i++) expect(s.get<{ i: number }>('k', `d${i}`)?.i).toBe(i);
    for (let i = 0; i < 5000; i += 499) expect(s.get<{ i: number }>('k', `d${i}`)?.i).toBe(i);
  });
});
