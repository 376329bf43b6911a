/**
 * The store's documents read by id are kept parsed between requests; these
 * pin that what is kept never differs from what is stored: readers get
 * copies (or, peeking, the kept document frozen), every write and a
 * rolled-back transaction that wrote drop what was kept (documents and where
 * CRNs are), and a key "__proto__" stays a field.
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

  test('a transaction that fails having written nothing keeps what was kept; one that wrote meta forgets it', () => {
    const s = fresh();
    s.setMeta('m', 'before');
    const kept = s.peek<Doc>('k', 'a');
    expect(() =>
      s.transaction(
        () => {
          expect(s.peek<Doc>('k', 'a')).toBe(kept);
          throw new Error('not found');
        },
        { readOnly: true },
      ),
    ).toThrow('not found');
    // The same kept document, not one read from SQLite again.
    expect(s.peek<Doc>('k', 'a')).toBe(kept);
    expect(() =>
      s.transaction(() => {
        s.setMeta('m', 'inside');
        expect(s.meta('m')).toBe('inside');
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(s.meta('m')).toBe('before');
    expect(s.peek<Doc>('k', 'a')).not.toBe(kept);
    expect(s.peek<Doc>('k', 'a')).toEqual(kept);
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

describe('documents peeked at (read as kept)', () => {
  test('a peek is the kept document, frozen throughout: changing it throws and changes nothing', () => {
    const s = fresh();
    const kept = s.peek<Doc>('k', 'a');
    expect(kept).toEqual({ name: 'a', tags: ['x'], nested: { n: 1 } });
    expect(s.peek<Doc>('k', 'a')).toBe(kept);
    if (!kept) throw new Error('no document');
    expect(Object.isFrozen(kept) && Object.isFrozen(kept.tags) && Object.isFrozen(kept.nested)).toBe(true);
    expect(() => {
      (kept as Doc).nested.n = 2;
    }).toThrow(TypeError);
    expect(() => (kept as Doc).tags.push('y')).toThrow(TypeError);
    // A reader that gets a copy of it can change the copy.
    const copy = s.get<Doc>('k', 'a');
    if (!copy) throw new Error('no document');
    copy.nested.n = 3;
    expect(s.peek<Doc>('k', 'a')?.nested.n).toBe(1);
  });

  test('a put after a peek is seen by the next peek; a delete too; and a document too big to keep is frozen all the same', () => {
    const s = fresh();
    const before = s.peek<Doc>('k', 'a');
    s.put('k', 'a', { name: 'a', tags: [], nested: { n: 4 } });
    expect(s.peek<Doc>('k', 'a')).not.toBe(before);
    expect(s.peek<Doc>('k', 'a')?.nested.n).toBe(4);
    s.delete('k', 'a');
    expect(s.peek('k', 'a')).toBeUndefined();
    s.put('k', 'big', { text: 'x'.repeat(64 * 1024) });
    expect(Object.isFrozen(s.peek('k', 'big'))).toBe(true);
    expect(Object.isFrozen(s.get('k', 'big'))).toBe(false);
  });
});

describe('documents found by CRN', () => {
  test('a CRN found once leads to its document until the document is written with another CRN, or deleted', () => {
    const s = fresh();
    expect(s.idByCrn('crn:a')).toEqual({ kind: 'k', id: 'a' });
    s.put('k', 'a', { name: 'a', tags: [], nested: { n: 1 } }, { name: 'a', crn: 'crn:a2' });
    expect(s.idByCrn('crn:a')).toBeUndefined();
    expect(s.getByCrn('crn:a')).toBeUndefined();
    expect(s.idByCrn('crn:a2')).toEqual({ kind: 'k', id: 'a' });
    // The old CRN may now be another document's.
    s.put('k', 'b', { name: 'b', tags: [], nested: { n: 2 } }, { name: 'b', crn: 'crn:a' });
    expect(s.getByCrn<Doc>('crn:a')?.doc.name).toBe('b');
    s.delete('k', 'b');
    expect(s.idByCrn('crn:a')).toBeUndefined();
  });

  test('a rolled-back transaction forgets where the CRNs it wrote were', () => {
    const s = fresh();
    expect(() =>
      s.transaction(() => {
        s.put('k', 'c', { name: 'c', tags: [], nested: { n: 1 } }, { name: 'c', crn: 'crn:c' });
        expect(s.idByCrn('crn:c')).toEqual({ kind: 'k', id: 'c' });
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(s.idByCrn('crn:c')).toBeUndefined();
    expect(s.idByCrn('crn:a')).toEqual({ kind: 'k', id: 'a' });
  });
});
