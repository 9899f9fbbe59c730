import { readFileSync } from 'node:fs';
import type pg from 'pg';

/** CPU time (user + system, ms) a process has used so far, from /proc; null once it is gone. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * A timer of statements sent through one pg connection: `time(label, run)` warms up, runs
 * `run` `count` times and prints the Node CPU, the CPU of the connection's PostgreSQL backend
 * and the wall time, each per run.
 */
export async function backendTimer(client: pg.Client, count: number) {
  const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid as number;
  const backendMs = () => processCpuMs(pid) ?? 0;
  return async function time(label: string, run: () => Promise<unknown>, width = 30): Promise<void> {
    for (let i = 0; i < 100; i += 1) await run();
    const c0 = process.cpuUsage();
    const b0 = backendMs();
    const t0 = performance.now();
    for (let i = 0; i < count; i += 1) await run();
    const c = process.cpuUsage(c0);
    const per = (x: number) => (x / count).toFixed(3);
    console.log(
      label.padEnd(width),
      `node ${per((c.user + c.system) / 1000)} ms  postgres ${per(backendMs() - b0)} ms  wall ${per(performance.now() - t0)} ms`,
    );
  };
}

/** utime + stime (ms) of each PostgreSQL backend connected to `database` now, by pid */
export async function databaseBackendsCpuMs(pool: pg.Pool, database: string): Promise<Map<number, number>> {
  const r = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
  const out = new Map<number, number>();
  for (const { pid } of r.rows) {
    const ms = processCpuMs(pid);
    if (ms !== null) out.set(pid, ms);
  }
  return out;
}
