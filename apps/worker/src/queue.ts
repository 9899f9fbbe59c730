import PgBoss from 'pg-boss';
import { type AnyJobDefinition, type JobPayloadInputOf, type JobQueue, type JobSendOptions, jobData } from '@bo/domain';

/** pg-boss on the service's own PostgreSQL (its tables live in the `pgboss` schema). */
export function createBoss(
  connectionString: string,
  opts: { max?: number; schedule?: boolean; pool?: Record<string, unknown> } = {},
): PgBoss {
  return new PgBoss({
    // the database's own pool settings (idle timeout; on the embedded one, unnamed statements)
    ...opts.pool,
    connectionString,
    max: opts.max ?? 4,
    schedule: opts.schedule ?? false,
    supervise: opts.schedule ?? false,
    // pg-boss 11.0.0 never defaults this one: left out, its supervision timer is
    // setInterval(…, NaN), i.e. every millisecond, and the queue maintenance queries
    // ran back to back (about 1,000 statements a second on an idle worker)
    superviseIntervalSeconds: 60,
    application_name: 'bizops-worker',
  });
}

/**
 * A statement of pg-boss's, for the change's tenant reader: the reader binds the environment as $1
 * of every statement, so pg-boss's own parameters move up by one, and the environment is named in a
 * CTE that nothing reads (PostgreSQL refuses a parameter whose type it cannot tell, and pg-boss's
 * tables have no environment). pg-boss's job insert is one INSERT … SELECT … RETURNING id.
 */
export function onTenantReader(text: string): string {
  const shifted = text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + 1}`);
  const environment = 'job_environment AS (SELECT $1::text AS id)';
  const withClause = /^\s*WITH\s/i;
  if (/^\s*WITH\s+RECURSIVE\s/i.test(shifted))
    throw new Error('a recursive pg-boss statement cannot be sent on the tenant reader');
  return withClause.test(shifted) ? shifted.replace(withClause, `WITH ${environment}, `) : `WITH ${environment} ${shifted}`;
}

/** The domain's JobQueue port: the job is inserted through the change's own transaction, by its tenant reader. */
export class PgBossJobQueue implements JobQueue {
  constructor(private readonly boss: PgBoss) {}

  async send<Job extends AnyJobDefinition>(
    job: Job,
    payload: JobPayloadInputOf<Job>,
    opts: JobSendOptions,
  ): Promise<string | null> {
    // checked before anything is written: a payload its definition refuses is never queued
    const data = jobData(job, payload);
    const db = {
      executeSql: async (text: string, values: unknown[] = []) => ({
        rows: await opts.sql.read<unknown>(onTenantReader(text), values),
      }),
    };
    return this.boss.send(job.name, data, {
      db,
      singletonKey: opts.singletonKey,
      startAfter: opts.startAfterSeconds,
    } as PgBoss.SendOptions);
  }
}
