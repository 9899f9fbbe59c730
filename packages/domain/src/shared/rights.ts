import { z } from 'zod';
import type { Principal } from './context.js';
import { ForbiddenError, UnauthenticatedError } from './errors.js';

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

/** Whether every right in `granted` is held at that level or higher in `holder`. */
export function rightsWithin(granted: Rights, holder: Rights): boolean {
  return MODULES.every((m) => RANK[granted[m] ?? 'none'] <= RANK[holder[m] ?? 'none']);
}

export function requireRight(rights: Rights, module: ModuleName, level: Exclude<RightLevel, 'none'>): void {
  if (!hasRight(rights, module, level)) throw new ForbiddenError();
}

/**
 * What a procedure declares it needs, readable without calling it: the procedure builders of
 * trpc.ts record it in the procedure's tRPC meta (`procedure.meta.right`). A module right, any
 * signed-in user, internal callers only, or nothing (sign-in, the token check itself).
 */
export type DeclaredRight =
  | { kind: 'module'; module: ModuleName; level: Exclude<RightLevel, 'none'> }
  | { kind: 'user' }
  | { kind: 'system' }
  | { kind: 'public' };

/** What every procedure's meta holds (see trpc.ts). */
export interface ProcedureMeta {
  right?: DeclaredRight;
  /** the schema `.input()` declared: its keys are the only ones the procedure takes (trpc.ts, strictInputs) */
  strictInput?: unknown;
}

/**
 * The one check of a declared right, run by the doors' guard before a request's body is read and
 * by the procedure itself before its input: no principal is Unauthenticated, a principal without
 * the right Forbidden.
 */
export function requireDeclaredRight(principal: Principal | null, right: DeclaredRight): void {
  if (right.kind === 'public') return;
  if (right.kind === 'system') {
    if (principal?.kind !== 'system') throw new ForbiddenError('internal procedure');
    return;
  }
  if (!principal) throw new UnauthenticatedError();
  if (principal.kind !== 'user') throw new ForbiddenError('a user token is required');
  if (right.kind === 'module') requireRight(principal.rights, right.module, right.level);
}

/** The right a procedure declares (its tRPC meta), read from the procedure without calling it; undefined when it is none. */
export function declaredRightOf(procedure: unknown): DeclaredRight | undefined {
  if (typeof procedure !== 'function' || !('meta' in procedure)) return undefined;
  return (procedure.meta as ProcedureMeta | undefined)?.right;
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
