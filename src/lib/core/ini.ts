/**
 * INI files as the official CLI reads them: Python's
 * configparser.RawConfigParser with its defaults (cdpcli/configloader.py).
 * That means `=` or `:` between key and value, whichever comes first; keys
 * lower-cased; `#` and `;` start a comment only at the start of a line, so a
 * value keeps them (`key = a;b#c` is `a;b#c`); a line indented deeper than
 * its key continues the value; [DEFAULT] values show in every section; a
 * repeated section or key is an error, as is a line before any section.
 *
 * IniDocument edits a file in place: a changed key is rewritten on its own
 * line, a new one goes at the end of its section, and everything else
 * (comments, blank lines, order, other tools' keys) stays as it was. Values
 * it cannot write so that configparser reads them back the same are refused.
 */

/**
 * Python's str.isspace() characters: what configparser's strip() removes.
 * Tested by code point rather than with a regular expression: a class of
 * these ranges costs its first use a compile that every run would pay.
 */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Where the text's first character that is no space is (its length if none). */
function firstNonSpace(s: string, from = 0): number {
  let i = from;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i;
}

/** The text without the spaces it ends with. */
function stripEnd(s: string): string {
  let end = s.length;
  while (end > 0 && isSpace(s.charCodeAt(end - 1))) end--;
  return end === s.length ? s : s.slice(0, end);
}

const strip = (s: string): string => stripEnd(s.slice(firstNonSpace(s)));

const SECTION = /^\[(.+)\]/s;

/** Sections by name, each a map of keys (lower case) to values. */
export type IniData = Record<string, Record<string, string>>;

export const DEFAULT_SECTION = 'DEFAULT';

/** A file configparser refuses (so the official CLI does too). */
export class IniError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

interface OptionSpan {
  readonly key: string;
  /** First and last line of the key (with its continuation lines and any blank lines within). */
  readonly from: number;
  to: number;
  value: string[];
}

interface SectionSpan {
  readonly name: string;
  readonly header: number;
  /** Last line that belongs to it (a key, a continuation, or the header). */
  last: number;
  readonly options: Map<string, OptionSpan>;
}

/** Lines as Python's text mode splits a file: at \n, \r\n and \r. */
function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Reads the structure of INI text, as configparser._read does. */
function scan(lines: readonly string[]): SectionSpan[] {
  const sections: SectionSpan[] = [];
  let cur: SectionSpan | undefined;
  let opt: OptionSpan | undefined;
  let indent = 0;
  lines.forEach((line, i) => {
    const n = i + 1;
    const stripped = strip(line);
    const comment = stripped.startsWith('#') || stripped.startsWith(';');
    if (comment || stripped === '') {
      // A blank line (not a comment) inside a value is part of it.
      if (!comment && opt) opt.value.push('');
      return;
    }
    const level = firstNonSpace(line);
    if (cur && opt && level > indent) {
      opt.value.push(stripped);
      opt.to = i;
      cur.last = i;
      return;
    }
    indent = level;
    const header = SECTION.exec(stripped);
    if (header) {
      const name = header[1] ?? '';
      // [DEFAULT] may come back (its keys still may not); any other section may not.
      const again = sections.find((s) => s.name === name);
      if (again && name !== DEFAULT_SECTION) throw new IniError(n, `section [${name}] appears twice`);
      cur = { name, header: i, last: i, options: again?.options ?? new Map() };
      sections.push(cur);
      opt = undefined;
      return;
    }
    if (!cur) throw new IniError(n, 'a line before the first [section]');
    // configparser's `(?P<option>.*?)\\s*(?P<vi>[=:])\\s*(?P<value>.*)$`: the key ends at the first = or :.
    const eq = stripped.indexOf('=');
    const colon = stripped.indexOf(':');
    const at = eq < 0 ? colon : colon < 0 ? eq : Math.min(eq, colon);
    const key = at < 0 ? '' : stripEnd(stripped.slice(0, at)).toLowerCase();
    if (key === '') throw new IniError(n, `"${stripped.slice(0, 40)}" is not "key = value"`);
    if (cur.options.has(key)) throw new IniError(n, `key ${key} appears twice in [${cur.name}]`);
    opt = { key, from: i, to: i, value: [strip(stripped.slice(at + 1))] };
    cur.options.set(key, opt);
    cur.last = i;
  });
  return sections;
}

const joined = (o: OptionSpan): string => stripEnd(o.value.join('\n'));

/**
 * What configparser reads from INI text: every section but DEFAULT, each
 * with its own keys and the DEFAULT ones it does not set itself. Throws
 * IniError where configparser raises.
 */
export function parseIni(text: string): IniData {
  return IniDocument.parse(text).data();
}

/** An INI file's text, read and edited line by line. */
export class IniDocument {
  private constructor(private lines: string[]) {}

  static parse(text: string): IniDocument {
    const doc = new IniDocument(splitLines(text));
    doc.sections();
    return doc;
  }

  private sections(): SectionSpan[] {
    return scan(this.lines);
  }

  /** Each section's own keys, DEFAULT included as a section (what an edit works on). */
  raw(): IniData {
    const out: IniData = {};
    for (const s of this.sections()) out[s.name] = Object.fromEntries([...s.options.values()].map((o) => [o.key, joined(o)]));
    return out;
  }

  /** What configparser (so the official CLI) reads. */
  data(): IniData {
    const raw = this.raw();
    const defaults = raw[DEFAULT_SECTION] ?? {};
    const out: IniData = {};
    for (const [name, values] of Object.entries(raw)) if (name !== DEFAULT_SECTION) out[name] = { ...defaults, ...values };
    return out;
  }

  /** Sets one key, keeping every other line; refuses what would not read back as given. */
  set(section: string, key: string, value: string): void {
    checkName(section, key);
    const line = value === '' ? `${key} =` : `${key} = ${value.split('\n').join('\n\t')}`;
    const back = scan(['[s]', ...splitLines(line)])[0]?.options.get(key);
    if (!back || joined(back) !== value) throw new IniError(0, `the value of ${key} cannot be written so that it reads back the same`);
    const written = splitLines(line);
    const s = this.sections().find((x) => x.name === section);
    if (!s) {
      while (this.lines.length > 0 && strip(this.lines[this.lines.length - 1] ?? '') === '') this.lines.pop();
      this.lines.push(...(this.lines.length > 0 ? [''] : []), `[${section}]`, ...written);
      return;
    }
    const o = s.options.get(key);
    if (o) this.lines.splice(o.from, lastLine(this.lines, o) - o.from + 1, ...written);
    else this.lines.splice(s.last + 1, 0, ...written);
  }

  /** Removes one key (with its continuation lines); false when it was not there. */
  unset(section: string, key: string): boolean {
    const o = this.sections()
      .find((x) => x.name === section)
      ?.options.get(key.toLowerCase());
    if (!o) return false;
    this.lines.splice(o.from, lastLine(this.lines, o) - o.from + 1);
    return true;
  }

  /** Removes a section, its header and keys. */
  removeSection(section: string): void {
    const all = this.sections();
    const i = all.findIndex((x) => x.name === section);
    const s = all[i];
    if (!s) return;
    this.lines.splice(s.header, s.last - s.header + 1);
  }

  /** Applies the difference between two raw views (see raw()): keys set, removed, sections dropped. */
  apply(before: IniData, after: IniData): void {
    for (const name of Object.keys(before)) if (!(name in after)) this.removeSection(name);
    for (const [name, values] of Object.entries(after)) {
      const old = before[name] ?? {};
      for (const key of Object.keys(old)) if (!(key in values)) this.unset(name, key);
      for (const [key, value] of Object.entries(values)) if (old[key] !== value) this.set(name, key, value);
    }
  }

  toString(): string {
    return this.lines.length > 0 ? this.lines.join('\n') + '\n' : '';
  }
}

/** The last line of a key's value, not counting blank lines that follow it. */
function lastLine(lines: readonly string[], o: OptionSpan): number {
  let to = o.to;
  while (to > o.from && strip(lines[to] ?? '') === '') to--;
  return to;
}

/** Section and key names that read back as themselves. */
function checkName(section: string, key: string): void {
  if (!section || /[\r\n]/.test(section) || section.includes(']') || strip(section) !== section) {
    throw new IniError(0, `[${section}] cannot be a section name`);
  }
  if (!/^[a-z0-9_.-]+$/.test(key)) throw new IniError(0, `"${key}" cannot be a key (lower-case letters, digits, _ . - only)`);
}
