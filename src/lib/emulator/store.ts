/**
 * The emulator's state: one SQLite database (WAL) of JSON documents keyed by
 * kind and id, with an optional unique CRN and a case-insensitive name for
 * lookups. Every request runs in one transaction, so a 200 means it is on
 * disk and a crash never leaves half a change.
 */
import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { checkDataDir, checkPrivateFile, privateFile } from './data-dir.js';

export interface StoredDoc<T> {
  readonly id: string;
  readonly seq: number;
  readonly doc: T;
}

interface Row {
  id: string;
  seq: number;
  body: string;
}

/** One stored document as export and import carry it. */
export interface RawDoc {
  readonly kind: string;
  readonly id: string;
  readonly account: string;
  /** The lower-cased lookup name, or null. */
  readonly name: string | null;
  readonly crn: string | null;
  readonly parent: string | null;
  /** The document as JSON text. */
  readonly body: string;
}

export interface PutOptions {
  /** Name for case-insensitive lookups (unique per kind and account when given). */
  readonly name?: string;
  readonly crn?: string;
  /** Parent key for listing children (e.g. a data share's id). */
  readonly parent?: string;
}

const DOC_CACHE_ENTRIES = 2048;
const DOC_CACHE_BYTES = 16 * 1024;

const docKey = (kind: string, id: string): string => `${kind}\u0000${id}`;

/** A copy of a value JSON.parse made (plain objects, arrays and primitives only). */
function copyJson(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(copyJson);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = copyJson((v as Record<string, unknown>)[k]);
    // A key a client sent may be "__proto__": an own field, as JSON.parse made it, never the prototype.
    if (k === '__proto__') Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
    else out[k] = x;
  }
  return out;
}

/** Freezes a parsed document and everything in it, so that a peeked document cannot be changed in place. */
function deepFreeze(v: unknown): void {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return;
  Object.freeze(v);
  for (const x of Object.values(v)) deepFreeze(x);
}

export class Store {
  readonly db: Database.Database;
  /** One transaction wrapper for every call (made once rather than per request). */
  private run?: Database.Transaction<(f: () => unknown) => unknown>;
  private readonly stmts: {
    get: Database.Statement<[string, string], Row>;
    byName: Database.Statement<[string, string, string], { id: string }>;
    byCrn: Database.Statement<[string], { kind: string; id: string }>;
    upsert: Database.Statement<[string, string, string, string | null, string | null, string | null, string]>;
    del: Database.Statement<[string, string]>;
    list: Database.Statement<[string, string, number, number], Row>;
    children: Database.Statement<[string, string, string], Row>;
    childrenAfter: Database.Statement<[string, string, string, number, number], Row>;
    childByName: Database.Statement<[string, string, string, string], { id: string }>;
    allByName: Database.Statement<[string, string, string], { id: string }>;
    allChildrenByName: Database.Statement<[string, string, string, string], { id: string }>;
    count: Database.Statement<[string, string], { n: number }>;
    meta: Database.Statement<[string], { value: string }>;
    setMeta: Database.Statement<[string, string]>;
  };

  constructor(
    path: string,
    public account: string = '',
  ) {
    if (path !== ':memory:') {
      // Users, public keys and token hashes: the owner's alone (data-dir.ts).
      checkDataDir(dirname(path), { create: true });
      privateFile(path);
      for (const journal of [`${path}-wal`, `${path}-shm`]) checkPrivateFile(journal);
    }
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode survives a process kill; only an OS crash could lose the last commits.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS docs (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        account TEXT NOT NULL,
        name_lc TEXT,
        crn TEXT UNIQUE,
        parent TEXT,
        body TEXT NOT NULL,
        UNIQUE(kind, id)
      );
      CREATE INDEX IF NOT EXISTS docs_name ON docs(kind, account, name_lc);
      -- Paging in creation order (list): a range scan per page, not a sort of the whole kind.
      CREATE INDEX IF NOT EXISTS docs_seq ON docs(kind, account, seq);
      CREATE INDEX IF NOT EXISTS docs_parent ON docs(kind, parent);
      -- Paging the children of one parent in creation order (the engine's scoped listings).
      CREATE INDEX IF NOT EXISTS docs_parent_seq ON docs(kind, parent, seq);
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
    this.stmts = {
      get: this.db.prepare('SELECT id, seq, body FROM docs WHERE kind = ? AND id = ?'),
      // Lookups by name or CRN find the id only: the document is then read by id, most often from docCache.
      byName: this.db.prepare('SELECT id FROM docs WHERE kind = ? AND account = ? AND name_lc = ?'),
      byCrn: this.db.prepare('SELECT kind, id FROM docs WHERE crn = ?'),
      upsert: this.db.prepare(
        `INSERT INTO docs (kind, id, account, name_lc, crn, parent, body) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(kind, id) DO UPDATE SET name_lc = excluded.name_lc, crn = excluded.crn, parent = excluded.parent, body = excluded.body`,
      ),
      del: this.db.prepare('DELETE FROM docs WHERE kind = ? AND id = ?'),
      list: this.db.prepare('SELECT id, seq, body FROM docs WHERE kind = ? AND account = ? AND seq > ? ORDER BY seq LIMIT ?'),
      children: this.db.prepare('SELECT id, seq, body FROM docs WHERE kind = ? AND account = ? AND parent = ? ORDER BY seq'),
      childrenAfter: this.db.prepare(
        'SELECT id, seq, body FROM docs WHERE kind = ? AND account = ? AND parent = ? AND seq > ? ORDER BY seq LIMIT ?',
      ),
      childByName: this.db.prepare('SELECT id FROM docs WHERE kind = ? AND account = ? AND parent = ? AND name_lc = ?'),
      allByName: this.db.prepare('SELECT id FROM docs WHERE kind = ? AND account = ? AND name_lc = ? ORDER BY seq DESC'),
      allChildrenByName: this.db.prepare(
        'SELECT id FROM docs WHERE kind = ? AND account = ? AND parent = ? AND name_lc = ? ORDER BY seq DESC',
      ),
      count: this.db.prepare('SELECT count(*) AS n FROM docs WHERE kind = ? AND account = ?'),
      meta: this.db.prepare('SELECT value FROM meta WHERE key = ?'),
      setMeta: this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'),
    };
  }

  close(): void {
    this.db.close();
  }

  /**
   * Runs fn in one transaction (nested calls join the outer one). Writers
   * take the write lock up front (IMMEDIATE); `readOnly` work takes it only
   * if it writes after all (DEFERRED), so reads never queue behind the lock.
   */
  transaction<T>(fn: () => T, opts: { readOnly?: boolean } = {}): T {
    if (this.db.inTransaction) return fn();
    this.run ??= this.db.transaction((f: () => unknown) => f());
    const writesBefore = this.writes;
    try {
      return (opts.readOnly ? this.run.deferred(fn) : this.run.immediate(fn)) as T;
    } catch (err) {
      // Rolled back: what it wrote is undone, so nothing kept since its first write may stay. One that wrote nothing
      // (a describe refused with NOT_FOUND) read only what was committed: what it kept stays, or every refusal
      // would send the requests after it (their callers' keys among them) back to SQLite.
      if (this.writes !== writesBefore) this.forgetKept();
      throw err;
    }
  }

  /** Writes so far (put, delete, setMeta, reset): whether a failed transaction wrote anything. */
  private writes = 0;

  /**
   * Documents read by id, parsed, for the reads that follow (a describe
   * reads its resource and its parent on every poll). Kept on the same terms
   * as the meta entries below: every write to a document goes through put,
   * delete, reset or restore, which drop what is kept of it, and a failed
   * transaction drops all. Callers get a copy (they change what they read
   * before they put it back), which costs a fraction of a parse. At most
   * DOC_CACHE_ENTRIES documents of at most DOC_CACHE_BYTES each are kept,
   * the oldest dropped first, so a listing of many records or a big
   * snapshot never makes the process grow.
   */
  private readonly docCache = new Map<string, unknown>();

  get<T>(kind: string, id: string): T | undefined {
    const found = this.read(kind, id);
    if (!found) return undefined;
    // A document too big to keep was parsed for this read alone: it needs no copy.
    return (found.kept ? copyJson(found.doc) : found.doc) as T;
  }

  /**
   * A document as it is kept, without the copy `get` hands out: frozen, so
   * that a caller who changes it gets a TypeError rather than corrupting
   * what later reads see. For read paths that only look (a describe polled
   * by a `--wait`); anything that may change what it read uses `get`.
   */
  peek<T>(kind: string, id: string): Readonly<T> | undefined {
    const found = this.read(kind, id);
    if (!found) return undefined;
    deepFreeze(found.doc);
    return found.doc as T;
  }

  /** A document parsed, from docCache or from the database (then kept, unless it is too big to keep). */
  private read(kind: string, id: string): { doc: unknown; kept: boolean } | undefined {
    const key = docKey(kind, id);
    const hit = this.docCache.get(key);
    if (hit !== undefined) return { doc: hit, kept: true };
    const row = this.stmts.get.get(kind, id);
    if (!row) return undefined;
    const doc: unknown = JSON.parse(row.body);
    if (row.body.length > DOC_CACHE_BYTES) return { doc, kept: false };
    if (this.docCache.size >= DOC_CACHE_ENTRIES) this.docCache.delete(this.docCache.keys().next().value as string);
    this.docCache.set(key, doc);
    return { doc, kept: true };
  }

  getByName<T>(kind: string, name: string): T | undefined {
    const id = this.idByName(kind, name);
    return id !== undefined ? this.get<T>(kind, id) : undefined;
  }

  /** The id of the document of a kind with a name (any case), without reading the document. */
  idByName(kind: string, name: string): string | undefined {
    return this.stmts.byName.get(kind, this.account, name.toLowerCase())?.id;
  }

  getByCrn<T>(crn: string): { kind: string; id: string; doc: T } | undefined {
    const row = this.idByCrn(crn);
    const doc = row ? this.get<T>(row.kind, row.id) : undefined;
    return row && doc !== undefined ? { kind: row.kind, id: row.id, doc } : undefined;
  }

  /**
   * Where the documents with CRNs are, as found (every signed request looks
   * up its caller by CRN): on the same terms as docCache, dropped by a write
   * to the document and by a failed transaction. `crnAt` is the other way
   * round, so that a write finds the entry of the CRN its document had.
   */
  private readonly crnCache = new Map<string, { kind: string; id: string }>();
  private readonly crnAt = new Map<string, string>();

  /** The kind and id of the document with a CRN, without reading the document. */
  idByCrn(crn: string): { kind: string; id: string } | undefined {
    const hit = this.crnCache.get(crn);
    if (hit) return hit;
    const row = this.stmts.byCrn.get(crn);
    if (!row) return undefined;
    if (this.crnCache.size >= DOC_CACHE_ENTRIES) this.forgetCrns();
    const at = { kind: row.kind, id: row.id };
    this.crnCache.set(crn, at);
    this.crnAt.set(docKey(at.kind, at.id), crn);
    return at;
  }

  /** Drops what is kept of one document: before it is written or deleted. */
  private forget(kind: string, id: string): void {
    const key = docKey(kind, id);
    this.docCache.delete(key);
    const crn = this.crnAt.get(key);
    if (crn !== undefined) {
      this.crnCache.delete(crn);
      this.crnAt.delete(key);
    }
  }

  private forgetCrns(): void {
    this.crnCache.clear();
    this.crnAt.clear();
  }

  put<T>(kind: string, id: string, doc: T, opts: PutOptions = {}): T {
    this.writes++;
    this.forget(kind, id);
    this.stmts.upsert.run(
      kind,
      id,
      this.account,
      opts.name?.toLowerCase() ?? null,
      opts.crn ?? null,
      opts.parent ?? null,
      JSON.stringify(doc),
    );
    return doc;
  }

  delete(kind: string, id: string): boolean {
    this.writes++;
    this.forget(kind, id);
    return this.stmts.del.run(kind, id).changes > 0;
  }

  /** Documents of a kind in creation order, after a sequence number (for paging). */
  list<T>(kind: string, afterSeq = 0, limit = 1_000_000): Array<StoredDoc<T>> {
    return this.stmts.list.all(kind, this.account, afterSeq, limit).map((r) => ({ id: r.id, seq: r.seq, doc: JSON.parse(r.body) as T }));
  }

  children<T>(kind: string, parent: string): Array<StoredDoc<T>> {
    return this.stmts.children.all(kind, this.account, parent).map((r) => ({ id: r.id, seq: r.seq, doc: JSON.parse(r.body) as T }));
  }

  /** Children of a parent in creation order, after a sequence number (for paging). */
  childrenAfter<T>(kind: string, parent: string, afterSeq = 0, limit = 1_000_000): Array<StoredDoc<T>> {
    return this.stmts.childrenAfter
      .all(kind, this.account, parent, afterSeq, limit)
      .map((r) => ({ id: r.id, seq: r.seq, doc: JSON.parse(r.body) as T }));
  }

  /** The child of a parent with a name (any case). */
  childByName<T>(kind: string, parent: string, name: string): T | undefined {
    const id = this.childIdByName(kind, parent, name);
    return id !== undefined ? this.get<T>(kind, id) : undefined;
  }

  /** The id of the child of a parent with a name (any case), without reading the document. */
  childIdByName(kind: string, parent: string, name: string): string | undefined {
    return this.stmts.childByName.get(kind, this.account, parent, name.toLowerCase())?.id;
  }

  /**
   * The ids of the documents of a kind with a name (any case), newest first,
   * within a parent when one is given: a kind whose deleted records keep
   * their names may have several (engine/records.ts picks the live one).
   */
  idsByName(kind: string, name: string, parent?: string): string[] {
    const rows =
      parent === undefined
        ? this.stmts.allByName.all(kind, this.account, name.toLowerCase())
        : this.stmts.allChildrenByName.all(kind, this.account, parent, name.toLowerCase());
    return rows.map((r) => r.id);
  }

  count(kind: string): number {
    return this.stmts.count.get(kind, this.account)?.n ?? 0;
  }

  /**
   * Meta entries are read on every request (the account's admin, built-in
   * catalogues' flags) and change seldom, so they are kept in memory. This
   * process is the only writer while it has the database open (one emulator
   * per data directory; export and import of a stopped one open their own),
   * every write goes through setMeta or reset, and a transaction that fails
   * that wrote and failed forgets them all, since its writes are undone.
   */
  private readonly metaCache = new Map<string, string | undefined>();

  meta(key: string): string | undefined {
    if (this.metaCache.has(key)) return this.metaCache.get(key);
    const value = this.stmts.meta.get(key)?.value;
    this.metaCache.set(key, value);
    return value;
  }

  setMeta(key: string, value: string): void {
    this.writes++;
    this.stmts.setMeta.run(key, value);
    this.metaCache.set(key, value);
  }

  /** Every document in creation order, and every meta entry (export). */
  dump(): { docs: RawDoc[]; meta: Record<string, string> } {
    const docs = this.db.prepare('SELECT kind, id, account, name_lc AS name, crn, parent, body FROM docs ORDER BY seq').all() as RawDoc[];
    const meta = Object.fromEntries(
      (this.db.prepare('SELECT key, value FROM meta ORDER BY key').all() as Array<{ key: string; value: string }>).map((r) => [
        r.key,
        r.value,
      ]),
    );
    return { docs, meta };
  }

  /** Replaces all state with what a dump holds, in one transaction: all of it or nothing (import). */
  restore(state: { docs: readonly RawDoc[]; meta: Readonly<Record<string, string>> }): void {
    const insert = this.db.prepare('INSERT INTO docs (kind, id, account, name_lc, crn, parent, body) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.transaction(() => {
      this.reset();
      for (const d of state.docs) insert.run(d.kind, d.id, d.account, d.name, d.crn, d.parent, d.body);
      for (const [k, v] of Object.entries(state.meta)) this.setMeta(k, v);
    });
  }

  /** How many documents there are of these kinds (any account). */
  countKinds(kinds: readonly string[]): number {
    if (kinds.length === 0) return 0;
    const row = this.db.prepare(`SELECT count(*) AS n FROM docs WHERE kind IN (${kinds.map(() => '?').join(',')})`).get(...kinds) as {
      n: number;
    };
    return row.n;
  }

  /** How many documents there are of each kind (any account). */
  kindCounts(): Record<string, number> {
    const rows = this.db.prepare('SELECT kind, count(*) AS n FROM docs GROUP BY kind ORDER BY kind').all() as Array<{
      kind: string;
      n: number;
    }>;
    return Object.fromEntries(rows.map((r) => [r.kind, r.n]));
  }

  /** Drops all state (emulator reset). */
  reset(): void {
    this.writes++;
    this.db.exec('DELETE FROM docs; DELETE FROM meta;');
    this.forgetKept();
  }

  /** Drops every document and meta entry kept in memory (after a reset or a rollback). */
  private forgetKept(): void {
    this.metaCache.clear();
    this.docCache.clear();
    this.forgetCrns();
  }
}
