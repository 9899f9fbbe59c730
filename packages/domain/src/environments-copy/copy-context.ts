import type { PrismaClient } from '@bo/db';
import type { FileStorage } from '../shared/storage.js';
import type { Progress } from './progress.js';
import { DEFAULT_BATCH_SIZE } from './target-writer.js';

/** What the copy, export, import and abort use cases run with (the admin CLI makes it). */
export interface CopyContext {
  prisma: PrismaClient;
  storage: FileStorage;
  progress?: Progress;
  /** rows per batch (default 500): bounds the memory a copy holds */
  batchSize?: number;
  /** called after each committed batch (tests and the benchmark observe the batching through it) */
  onBatch?: (table: string, rows: number) => void;
}

export const batchSizeOf = (ctx: CopyContext): number => Math.max(1, Math.trunc(ctx.batchSize ?? DEFAULT_BATCH_SIZE));

export interface CopyResult {
  environment: { id: string; name: string };
  rows: number;
  files: number;
}

export async function environmentIdByName(prisma: PrismaClient, name: string): Promise<string | null> {
  const rows = await prisma.$queryRawUnsafe<{ id: string }[]>('SELECT id FROM environment WHERE name = $1', name);
  return rows[0]?.id ?? null;
}
