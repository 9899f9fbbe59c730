import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Writes declared once, like reads: a field is named in the Prisma schema, in its entity's
 * declaration, and in a wire mapping only where its wire name breaks the convention. Its write
 * schema, its column and its wire names are derived. So the field's name (snake_case or
 * camelCase) appears in at most three source files; generated code, migrations, tests and
 * documentation are not source.
 *
 * Another entity may have a field of the same name (an invoice line's own source type): its
 * files are that field's, listed below with the reason, and not counted for this one.
 */
const root = new URL('..', import.meta.url).pathname;

const sourceFiles = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((path) => /\.(ts|tsx|js|mjs|cjs|prisma|sql|json)$/.test(path))
  .filter((path) => !/(^|\/)(node_modules|generated|migrations|tests?|docs|dist|bench|benchmarks)\//.test(path))
  .filter((path) => !/\.(test|bench)\.ts$/.test(path) && !/(^|\/)(package|tsconfig[^/]*|biome|turbo)\.json$/.test(path));

/** The files naming the field: as a whole word, in snake_case or camelCase, in any letter case. */
function filesNaming(snake: string): string[] {
  const camel = snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  const word = new RegExp(`(?<![A-Za-z0-9])(${snake}|${camel})(?![A-Za-z0-9])`, 'i');
  return sourceFiles.filter((path) => {
    try {
      return word.test(readFileSync(`${root}${path}`, 'utf8'));
    } catch {
      return false; // listed but deleted in the work tree
    }
  });
}

const MEASURED: { name: string; field: string; others: { paths: RegExp; why: string }[] }[] = [
  {
    name: 'source_type',
    field: 'the timeline message',
    others: [
      {
        paths:
          /(^packages\/db\/prisma\/schema\/invoices\.prisma$|\/invoices\/|\/endpoints\/invoice\.ts$|\/lookups\/proposition\.entity\.ts$)/,
        why: "an invoice line's own source type (which draft source made it)",
      },
    ],
  },
  { name: 'main_profile', field: 'the company profile', others: [] },
  {
    name: 'coc_code',
    field: 'the organization',
    others: [{ paths: /\/crm\/myorganization\//, why: "the company profile's own chamber of commerce number" }],
  },
  {
    name: 'coc_code',
    field: 'the company profile',
    others: [
      {
        paths: /(\/crm\/organization\/|\/endpoints\/organization\.ts$)/,
        why: "the organization's own chamber of commerce number",
      },
    ],
  },
];

describe('a field is declared once', () => {
  it('the measure sees the source tree (the Prisma schema and the entities are there)', () => {
    expect(sourceFiles).toContain('packages/db/prisma/schema/crm.prisma');
    expect(sourceFiles).toContain('packages/domain/src/crm/organization/organization.entity.ts');
    expect(filesNaming('coc_code')).toContain('packages/domain/src/crm/organization/organization.entity.ts');
  });

  for (const { name, field, others } of MEASURED) {
    it(`${name} of ${field} appears in at most three source files: the Prisma schema, the entity, a wire mapping`, () => {
      const files = filesNaming(name).filter((path) => !others.some((o) => o.paths.test(path)));
      expect(files.length, files.join('\n')).toBeLessThanOrEqual(3);
      expect(
        files.some((path) => path.endsWith('.prisma')),
        files.join('\n'),
      ).toBe(true);
      expect(
        files.some((path) => path.endsWith('.entity.ts')),
        files.join('\n'),
      ).toBe(true);
    });
  }
});
