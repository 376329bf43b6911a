/**
 * Plain-text layout for help: paragraphs wrapped to a width, two-column
 * lists with a hanging indent, and command lines wrapped between arguments.
 * A word is never broken: a flag name or a URL longer than the line stays
 * whole on a line of its own.
 */
import { isTerminal } from './io.js';

/**
 * Width help is laid out for: $COLUMNS, else the terminal's, else 80; kept
 * between 40 and 120. process.stdout is read only when fd 1 is a terminal
 * (io.ts isTerminal): creating it for a pipe or a file costs milliseconds
 * that a help request does not need.
 */
export function helpWidth(
  env: Readonly<Record<string, string | undefined>> = process.env,
  out: () => { isTTY?: boolean; columns?: number } = () => (isTerminal(1) ? process.stdout : {}),
): number {
  const fromEnv = Number(env.COLUMNS);
  const stream = Number.isInteger(fromEnv) && fromEnv > 0 ? undefined : out();
  const width = stream ? (stream.isTTY && stream.columns ? stream.columns : 80) : fromEnv;
  return Math.max(40, Math.min(width, 120));
}

/** Greedy word wrap of one paragraph into lines of at most `width` characters (long words stay whole). */
export function wrapWords(text: string, width: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (!line) line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Paragraphs (split on newlines) wrapped to `width`, each line indented. */
export function wrap(text: string, width: number, indent = 0): string {
  const pad = ' '.repeat(indent);
  return text
    .split('\n')
    .flatMap((para) => (para.trim() ? wrapWords(para, Math.max(20, width - indent)).map((l) => pad + l) : ['']))
    .join('\n');
}

export interface ListOptions {
  /** Spaces before the left column. */
  readonly indent?: number;
  /** The widest left column kept on the same line as its text; longer entries put their text on the next line. */
  readonly maxLeft?: number;
  /** Force this left-column width (to align several lists). */
  readonly left?: number;
}

/** The left-column width a list would use: its widest entry, capped at `maxLeft`. */
export function leftWidth(rows: ReadonlyArray<readonly [string, string]>, maxLeft: number): number {
  return Math.min(maxLeft, Math.max(0, ...rows.map(([l]) => l.length).filter((n) => n <= maxLeft)));
}

/**
 * Two columns: the left one as it is (never wrapped), the right one wrapped
 * under itself. An entry wider than the column puts its text on the next line.
 */
export function twoColumns(rows: ReadonlyArray<readonly [string, string]>, width: number, opts: ListOptions = {}): string {
  const indent = opts.indent ?? 2;
  const maxLeft = opts.maxLeft ?? Math.floor((width - indent) * 0.4);
  const left = opts.left ?? leftWidth(rows, maxLeft);
  const textAt = indent + left + 2;
  const textWidth = Math.max(20, width - textAt);
  const pad = ' '.repeat(indent);
  const out: string[] = [];
  for (const [l, r] of rows) {
    const lines = r.trim() ? r.split('\n').flatMap((p) => (p.trim() ? wrapWords(p, textWidth) : [''])) : [];
    if (l.length > left) {
      out.push(pad + l);
      for (const line of lines) out.push(line ? ' '.repeat(textAt) + line : '');
      continue;
    }
    const [first = '', ...rest] = lines;
    out.push((pad + l.padEnd(left) + (first ? `  ${first}` : '')).trimEnd());
    for (const line of rest) out.push(line ? ' '.repeat(textAt) + line : '');
  }
  return out.join('\n');
}

/** Splits a command line into words, keeping quoted parts ('...' and "...") inside their word. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let quote = '';
  let started = false;
  for (const ch of line) {
    if (quote) {
      cur += ch;
      if (ch === quote) quote = '';
      continue;
    }
    if (ch === ' ') {
      if (started) words.push(cur);
      cur = '';
      started = false;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    cur += ch;
    started = true;
  }
  if (started) words.push(cur);
  return words;
}

/**
 * A command line fitted to `width`: it breaks only before a flag (so a flag
 * stays with its value), continuing with ` \` as a shell reads it.
 */
export function wrapCommand(line: string, width: number, indent = 2, continuation = 4): string {
  if (indent + line.length <= width) return ' '.repeat(indent) + line;
  const words = shellWords(line);
  // Units: a flag with the value(s) that follow it, or a leading word.
  const units: string[] = [];
  for (const w of words) {
    const last = units.length - 1;
    if (w.startsWith('-') || last < 0 || !units[last]?.startsWith('-')) units.push(w);
    else units[last] = `${units[last]} ${w}`;
  }
  const lines: string[] = [];
  let cur = '';
  let at = indent;
  for (const unit of units) {
    if (!cur) cur = unit;
    else if (at + cur.length + 1 + unit.length + 2 <= width || !unit.startsWith('-')) cur += ` ${unit}`;
    else {
      lines.push(' '.repeat(at) + cur + ' \\');
      cur = unit;
      at = indent + continuation;
    }
  }
  if (cur) lines.push(' '.repeat(at) + cur);
  return lines.join('\n');
}

/** Splits a synopsis into units that never break: `[--flag <value>]`, `--flag <value>`, a word. */
export function synopsisUnits(text: string): string[] {
  const units: string[] = [];
  let cur = '';
  let depth = 0;
  for (const ch of text) {
    if (ch === '[' || ch === '<' || ch === '(') depth++;
    if (ch === ']' || ch === '>' || ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ' ' && depth === 0) {
      if (cur) units.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) units.push(cur);
  // A flag keeps the placeholder that follows it: `--email <string>`.
  const out: string[] = [];
  for (const u of units) {
    const last = out.length - 1;
    if (last >= 0 && /^--?[\w-]+$/.test(out[last] ?? '') && /^<.*>(\.\.\.)?$/.test(u)) out[last] = `${out[last]} ${u}`;
    else out.push(u);
  }
  return out;
}

/** A synopsis (`$ cdpctl iam users create --email <string> [flags]`) wrapped between units, continued 4 spaces further in. */
export function wrapSynopsis(units: readonly string[], width: number, indent = 2, continuation = 4): string {
  const lines: string[] = [];
  let cur = '';
  let at = indent;
  for (const unit of units) {
    if (!cur) cur = unit;
    else if (at + cur.length + 1 + unit.length <= width) cur += ` ${unit}`;
    else {
      lines.push(' '.repeat(at) + cur);
      cur = unit;
      at = indent + continuation;
    }
  }
  if (cur) lines.push(' '.repeat(at) + cur);
  return lines.join('\n');
}

/** A titled section: the heading, then the body as given (already indented). */
export const section = (title: string, body: string): string => `${title}\n${body}`;

/** `A`, `A or B`, `A, B or C`. */
export function orList(items: readonly string[], word = 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${word} ${items[items.length - 1]}`;
}

/** A sentence's end: a full stop unless it already ends in punctuation. */
export const sentence = (s: string): string => (/[.!?]$/.test(s.trim()) ? s.trim() : `${s.trim()}.`);
