import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.js';

export interface ClientOptions {
  /** connections in the pool; 1 for the embedded database (PGlite is one session) */
  max?: number;
}

export function createPrismaClient(connectionString: string, opts: ClientOptions = {}): PrismaClient {
  const adapter = new PrismaPg({ connectionString, max: opts.max ?? 10 });
  return new PrismaClient({ adapter });
}

export type { PrismaClient };
