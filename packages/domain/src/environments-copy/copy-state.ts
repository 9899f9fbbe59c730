import type { PrismaClient } from '@bo/db';
import { ConflictError, NotFoundError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import { newSalt } from './remap.js';

/**
 * The state of a copy or import in progress (table environment_copy), one row per target. The
 * target environment exists from the start, under a name that contains a dot: the guard finds an
 * environment by the first label of the host name, so no request can reach it. Only the last
 * step, in one transaction with the removal of this row, gives it its name.
 */
export interface TableProgress {
  /** rows of the table committed in the target */
  rows: number;
  /** the source key of the last committed row (copy: the keyset position; import counts rows) */
  lastKey: string[] | null;
  done: boolean;
}

export interface CopyProgress {
  tables: Record<string, TableProgress>;
  /** files: the last storage key copied (in key order), and whether all are */
  files: { lastKey: string | null; count: number; done: boolean };
}

export interface CopyState {
  targetEnvironmentId: string;
  targetName: string;
  kind: 'copy' | 'import';
  sourceEnvironmentId: string | null;
  sourceName: string;
  salt: string;
  progress: CopyProgress;
}

export const emptyProgress = (): CopyProgress => ({ tables: {}, files: { lastKey: null, count: 0, done: false } });

/** the name the target holds while incomplete: unreachable, since an environment is addressed by one host label */
export function hiddenName(targetName: string): string {
  return `${targetName}.copy-in-progress`;
}

export const ENVIRONMENT_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

interface StateRow {
  target_environment_id: string;
  target_name: string;
  kind: string;
  source_environment_id: string | null;
  source_name: string;
  salt: string;
  progress: CopyProgress | string;
}

function fromRow(r: StateRow): CopyState {
  const progress = typeof r.progress === 'string' ? (JSON.parse(r.progress) as CopyProgress) : r.progress;
  return {
    targetEnvironmentId: r.target_environment_id,
    targetName: r.target_name,
    kind: r.kind === 'import' ? 'import' : 'copy',
    sourceEnvironmentId: r.source_environment_id,
    sourceName: r.source_name,
    salt: r.salt,
    progress: { ...emptyProgress(), ...progress },
  };
}

/** Makes the hidden target environment and the state of its copy, in one transaction. */
export async function beginCopy(
  prisma: PrismaClient,
  input: { kind: 'copy' | 'import'; targetName: string; sourceEnvironmentId: string | null; sourceName: string },
): Promise<CopyState> {
  if (!ENVIRONMENT_NAME.test(input.targetName)) {
    throw new ConflictError('an environment name is a DNS label: a-z, 0-9 and -');
  }
  const state: CopyState = {
    targetEnvironmentId: newEntityId('environment'),
    targetName: input.targetName,
    kind: input.kind,
    sourceEnvironmentId: input.sourceEnvironmentId,
    sourceName: input.sourceName,
    salt: newSalt(),
    progress: emptyProgress(),
  };
  await prisma.$transaction(async (tx) => {
    const taken = await tx.$queryRawUnsafe<{ n: number }[]>(
      `SELECT (SELECT count(*) FROM environment WHERE name = $1)::int
            + (SELECT count(*) FROM environment_copy WHERE target_name = $1)::int AS n`,
      input.targetName,
    );
    if ((taken[0]?.n ?? 0) > 0) {
      throw new ConflictError(
        `environment ${input.targetName} exists already, or a copy to it is in progress (resume it or abort it)`,
      );
    }
    await tx.$executeRawUnsafe(
      'INSERT INTO environment (id, name) VALUES ($1, $2)',
      state.targetEnvironmentId,
      hiddenName(input.targetName),
    );
    await tx.$executeRawUnsafe(
      `INSERT INTO environment_copy (target_environment_id, target_name, kind, source_environment_id, source_name, salt, progress)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)`,
      state.targetEnvironmentId,
      state.targetName,
      state.kind,
      state.sourceEnvironmentId,
      state.sourceName,
      state.salt,
      JSON.stringify(state.progress),
    );
  });
  return state;
}

export async function copyInProgress(prisma: PrismaClient, targetName: string): Promise<CopyState> {
  const rows = await prisma.$queryRawUnsafe<StateRow[]>('SELECT * FROM environment_copy WHERE target_name = $1', targetName);
  const row = rows[0];
  if (!row) throw new NotFoundError('environment copy in progress', targetName);
  return fromRow(row);
}

type Tx = Pick<PrismaClient, '$executeRawUnsafe'>;

export async function saveProgress(tx: Tx, state: CopyState): Promise<void> {
  await tx.$executeRawUnsafe(
    'UPDATE environment_copy SET progress = $2::jsonb, updated_at = now() WHERE target_environment_id = $1',
    state.targetEnvironmentId,
    JSON.stringify(state.progress),
  );
}
