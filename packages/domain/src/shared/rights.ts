import { z } from 'zod';
import { ForbiddenError } from './errors.js';

/** Rights are per module; a token has exactly its user's rights. */
export const MODULES = [
  'crm',
  'projects',
  'sales',
  'hours',
  'hrm',
  'invoices',
  'costs',
  'timers',
  'timeline',
  'documents',
  'customfields',
  'workflows',
  'webhooks',
  /** shared/item: small pieces of data integrations keep in the environment */
  'shared',
  'settings',
] as const;
export type ModuleName = (typeof MODULES)[number];

export const RIGHT_LEVELS = ['none', 'read', 'write'] as const;
export type RightLevel = (typeof RIGHT_LEVELS)[number];
export type Rights = Partial<Record<ModuleName, RightLevel>>;

export const rightsSchema = z.partialRecord(z.enum(MODULES), z.enum(RIGHT_LEVELS));

const RANK: Record<RightLevel, number> = { none: 0, read: 1, write: 2 };

export function hasRight(rights: Rights, module: ModuleName, level: Exclude<RightLevel, 'none'>): boolean {
  return RANK[rights[module] ?? 'none'] >= RANK[level];
}

export function requireRight(rights: Rights, module: ModuleName, level: Exclude<RightLevel, 'none'>): void {
  if (!hasRight(rights, module, level)) throw new ForbiddenError();
}

export const ALL_RIGHTS: Rights = Object.fromEntries(MODULES.map((m) => [m, 'write'])) as Rights;

/** Parses `crm:write,projects:read` (or `all:write`) as the admin CLI takes it. */
export function parseRights(spec: string): Rights {
  const out: Rights = {};
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [mod, level] = part.split(':');
    const lv = RIGHT_LEVELS.find((l) => l === level);
    if (!lv) throw new Error(`"${part}": the level must be one of ${RIGHT_LEVELS.join(', ')}`);
    if (mod === 'all') {
      for (const m of MODULES) out[m] = lv;
      continue;
    }
    const m = MODULES.find((x) => x === mod);
    if (!m) throw new Error(`"${part}": unknown module; modules are ${MODULES.join(', ')}`);
    out[m] = lv;
  }
  return out;
}
