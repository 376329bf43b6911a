/**
 * --query: a JMESPath expression compiled once, before anything is sent, and
 * applied to a result before it is formatted. Literals are read as the
 * Python library under the official CLI reads them.
 */
import { cdpError } from '../core/errors.js';

/** A compiled --query: applied to a result, throws when the expression fails on it. */
export type Query = ((v: unknown) => unknown) & { readonly expression: string };

/**
 * Backtick literals that are not JSON taken as strings (``users[?email==`a@x`]``),
 * as the Python JMESPath library under the official and AWS CLIs reads them:
 * the text, left-trimmed, becomes a JSON string literal. Raw strings and
 * quoted identifiers are left alone.
 */
export function lenientLiterals(expr: string): string {
  let out = '';
  let i = 0;
  while (i < expr.length) {
    const ch = expr[i] ?? '';
    if (ch === "'" || ch === '"') {
      let j = i + 1;
      while (j < expr.length && expr[j] !== ch) j += expr[j] === '\\' ? 2 : 1;
      out += expr.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (ch !== '`') {
      out += ch;
      i++;
      continue;
    }
    let j = i + 1;
    while (j < expr.length && expr[j] !== '`') j += expr[j] === '\\' && expr[j + 1] === '`' ? 2 : 1;
    if (j >= expr.length) {
      out += expr.slice(i);
      break;
    }
    const raw = expr.slice(i + 1, j);
    const lexeme = raw.replace(/\\`/g, '`');
    let literal = raw;
    try {
      JSON.parse(lexeme);
    } catch {
      try {
        literal = JSON.stringify(JSON.parse(`"${lexeme.trimStart()}"`) as string).replace(/`/g, '\\`');
      } catch {
        // Neither JSON nor a string: the parser reports it.
      }
    }
    out += `\`${literal}\``;
    i = j + 1;
  }
  return out;
}

/** Compiles a JMESPath expression once; a syntax error is a usage error (nothing is sent). */
export async function compileQuery(expr: string): Promise<Query> {
  const { compile, TreeInterpreter } = await import('@jmespath-community/jmespath');
  let ast: ReturnType<typeof compile>;
  try {
    ast = compile(lenientLiterals(expr));
  } catch (err) {
    throw cdpError({
      kind: 'usage',
      code: 'INVALID_QUERY',
      message: `--query "${expr}" is not valid JMESPath: ${(err as Error).message}`,
    });
  }
  const run = (v: unknown): unknown => TreeInterpreter.search(ast, v as Parameters<typeof TreeInterpreter.search>[1]);
  return Object.assign(run, { expression: expr });
}
