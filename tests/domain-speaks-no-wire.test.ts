import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The domain offers lists in its own terms (a list query: where, orderBy, offset, limit,
 * count; a page: items and count). The wire's syntax is the adapters' to map: v3's paging
 * (`page`/`itemsPerPage` in, `totalItems`/`totalPages` out) and the bracketed operators of
 * the query strings (`date[ge]`, `q[name][in]`). A comment may mention them; code may not.
 */

const DOMAIN = path.resolve(import.meta.dirname, '..', 'packages/domain/src');

const WIRE: RegExp[] = [
  /\bitemsPerPage\b/,
  /\btotalItems\b/,
  /\btotalPages\b/,
  /\[(eq|ne|neq|ge|gte|gt|le|lte|lt|in|nin|like|contains|between)\]/,
];

/** The file's code without its comments (printed back by the compiler). */
function codeOf(fileName: string, text: string): string {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  return ts.createPrinter({ removeComments: true }).printFile(source);
}

/** Each line of code that holds wire syntax, with what it holds. */
function wireSyntaxIn(fileName: string, text: string): string[] {
  const found: string[] = [];
  for (const line of codeOf(fileName, text).split('\n')) {
    for (const pattern of WIRE) {
      const m = pattern.exec(line);
      if (m) found.push(`${fileName}: ${m[0]} in \`${line.trim()}\``);
    }
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

describe('the domain speaks no wire syntax', () => {
  it('no code in packages/domain/src names v3 paging (itemsPerPage, totalItems, totalPages) or a bracketed operator ([ge], [in], …)', () => {
    const files = sourceFiles(DOMAIN);
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) => wireSyntaxIn(path.relative(DOMAIN, file), readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });

  it('the check finds wire syntax in code, in strings and names alike, and lets comments mention it', () => {
    expect(wireSyntaxIn('a.ts', `const input = { page: 1, itemsPerPage: 30 };`)).toHaveLength(1);
    expect(wireSyntaxIn('b.ts', `const filters = ['employeeId', 'date[ge]'];`)).toHaveLength(1);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the sample is the source text of a template literal
    expect(wireSyntaxIn('c.ts', 'const name = `q[${path}][in]`;')).toHaveLength(1);
    expect(wireSyntaxIn('d.ts', `export const page = (n: number) => ({ totalPages: n });`)).toHaveLength(1);
    const commented = `/** v3's date[ge] becomes a condition on startDate; itemsPerPage an offset and a limit */
// totalPages is the adapter's
const where = { path: 'startDate', op: 'ge', value: '2026-01-01' }; /* q[name][in] */`;
    expect(wireSyntaxIn('e.ts', commented)).toEqual([]);
  });
});
