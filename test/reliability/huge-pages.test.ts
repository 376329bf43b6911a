/**
 * One huge page: a server that answers a listing with 200,000 items in one
 * page. Every format prints it (no recursion on the list's length: a
 * `push(...items)` or `Math.max(...widths)` over it overflowed the stack),
 * and writes it a slice at a time, so that the text never becomes one
 * string (memory stays near the answer's own size: see docs/reliability.md).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { run } from '../helpers/cli.js';
import { opsHome } from './helpers.js';

const ITEMS = 200_000;
let server: Server;
let port = 0;
const home = opsHome('cdpctl-huge-');

beforeAll(async () => {
  const users: string[] = [];
  for (let i = 0; i < ITEMS; i++) users.push(`{"userId":"u${i}","email":"u${i}@example.test","creationDate":"2026-01-01T00:00:00Z"}`);
  const body = `{"users":[${users.join(',')}]}`;
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');

describe(`a page of ${ITEMS.toLocaleString('en')} items`, () => {
  test.each([['text'], ['table'], ['tsv'], ['json'], ['jsonl'], ['yaml']])(
    'prints in --output %s',
    async (format) => {
      const r = await run(
        ['iam', 'list-users', '--profile', 'ops', '--endpoint-url', `http://127.0.0.1:${port}/`, '--output', format, '--no-pager'],
        { home, timeoutMs: 120_000 },
      );
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
      expect(r.stdout).toContain('u0@example.test');
      // A table keeps the layout of its first rows, so a longer email wraps: look for the user's id there.
      expect(r.stdout).toContain(format === 'table' ? `│ u${ITEMS - 1} ` : `u${ITEMS - 1}@example.test`);
      if (format === 'text') {
        const rows = lines(r.stdout);
        expect(rows).toHaveLength(ITEMS);
        expect(rows[0]).toBe('USERS\t2026-01-01 00:00:00+00:00\tu0@example.test\tu0');
      }
      // One row a user (a table's borders and header besides).
      if (format === 'table') expect(lines(r.stdout).filter((l) => /^│ u\d+ /.test(l))).toHaveLength(ITEMS);
    },
    150_000,
  );
});
