import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FairQueue } from './fair-queue.js';
import type { JobResult, RenderJob } from './render-jobs.mjs';
import { type RenderLimits, renderLimits, renderLimitsFromEnv } from './render-limits.js';

export type { RenderJob } from './render-jobs.mjs';

/**
 * Why a job gave no result: `refused` (its headers declare more than the limits), `failed` (the
 * renderer could not), `timeout`, `memory` (its process ran out of its memory), `crashed`; or, not
 * the content's doing, `busy` (its environment's queue was full, or it waited too long), `starved` (out
 * of time, having had less than a quarter of it on a processor: the machine was too busy), `closed`, and
 * `unavailable` (its input could not be read).
 */
export type RenderFailure =
  | 'refused'
  | 'failed'
  | 'timeout'
  | 'memory'
  | 'crashed'
  | 'busy'
  | 'starved'
  | 'closed'
  | 'unavailable';
export type RenderResult = { ok: true; bytes: Buffer } | { ok: false; reason: RenderFailure; message: string };

/** Failures of the bytes themselves: the same bytes would fail again. */
export const CONTENT_FAILURES: ReadonlySet<RenderFailure> = new Set(['refused', 'failed', 'timeout', 'memory', 'crashed']);

// a plain .mjs beside this file (the bundle keeps this file's own import.meta.url): no loader needed
const WORKER_FILE = fileURLToPath(new URL('./render-worker.mjs', import.meta.url));
/** a render process that has not said it is ready within this is ended */
const START_TIMEOUT_MS = 30_000;
/** the old generation a render process starts with (MB; at most a quarter of its memory limit) */
const INITIAL_HEAP_MB = 64;
/** what a render process sees of the environment: nothing of the service's settings or secrets */
const PASSED_ENV = ['NODE_ENV', 'TMPDIR', 'TZ', 'LANG', 'HOME'];

/** a job, or how to make it when a render process is free (its bytes are read then, not while it waits) */
export type RenderJobSource = RenderJob | (() => Promise<RenderJob>);

/** A render process held for one job (RenderPool.reserve): `run` gives it the job, `release` gives it back unused. */
export interface RenderReservation {
  run(job: RenderJob): Promise<RenderResult>;
  release(): void;
}

interface Task {
  job: RenderJobSource;
  resolve: (result: RenderResult) => void;
  queued: NodeJS.Timeout | null;
}

interface Worker {
  child: ChildProcess;
  ready: Promise<boolean>;
  jobs: number;
  /** the job it runs, with its environment and message id */
  running: { task: Task; key: string; id: number; timer: NodeJS.Timeout | null } | null;
  idleTimer: NodeJS.Timeout | null;
  /** the end of its standard error, for the message of a crash */
  stderr: string;
  killed: boolean;
  /** it said it is ready */
  started: boolean;
}

/**
 * Expensive jobs run here, never in the service's own process: in render
 * processes (render-worker.mjs), each with its memory limited (RLIMIT_DATA for
 * every native allocation, on Linux, and a JavaScript heap limit), each running
 * one job at a time and killed past the time limit. Processes are kept warm and
 * reused, up to `workers`, and replaced after a job that leaves them large or
 * after `jobsPerWorker` jobs. Waiting jobs are queued per environment and taken
 * by fair share (FairQueue): an environment holds at most `perEnvironment`
 * processes, and another environment's job starts at the next free one.
 */
export class RenderPool {
  readonly limits: RenderLimits;
  private readonly queue: FairQueue<Task>;
  private readonly idle: Worker[] = [];
  private readonly workers = new Set<Worker>();
  private seq = 0;
  private closed = false;
  /** the last render process started became ready (no stand-by is started while they fail to start) */
  private starting = true;

  constructor(limits: Partial<RenderLimits> = {}) {
    this.limits = renderLimits(limits);
    this.queue = new FairQueue(this.limits.perEnvironment);
  }

  /** Runs `job` for `environment`; `first` puts it at the front of that environment's queue. Never rejects. */
  run(environment: string, job: RenderJobSource, opts: { first?: boolean } = {}): Promise<RenderResult> {
    if (this.closed) return Promise.resolve({ ok: false, reason: 'closed', message: 'the render pool is closed' });
    if (this.queue.waitingOf(environment) >= this.limits.queuePerEnvironment) {
      return Promise.resolve({ ok: false, reason: 'busy', message: 'too many jobs of this environment are waiting' });
    }
    return new Promise<RenderResult>((resolve) => {
      const task: Task = { job, resolve, queued: null };
      task.queued = setTimeout(() => {
        if (this.queue.remove(environment, task)) {
          resolve({ ok: false, reason: 'busy', message: `no render process was free within ${this.limits.queueTimeoutMs} ms` });
        }
      }, this.limits.queueTimeoutMs);
      this.queue.push(environment, task, opts.first);
      this.pump();
    });
  }

  /**
   * Takes a render process, started and ready, for a job given later: the wait for a free process and
   * its start are over before the caller begins what the job waits for (a send's transaction, which
   * holds its invoice and its environment's numbering meanwhile). Answers a failure as `run` would when
   * no process could be had. The reservation must be used or released: a process held unused is given
   * back after `timeoutMs`.
   */
  async reserve(environment: string, opts: { first?: boolean } = {}): Promise<RenderReservation | RenderResult> {
    let supply: (job: RenderJob) => void = () => {};
    let withdraw: (reason: Error) => void = () => {};
    const job = new Promise<RenderJob>((resolve, reject) => {
      supply = resolve;
      withdraw = reject;
    });
    let taken: () => void = () => {};
    const held = new Promise<null>((resolve) => {
      taken = () => resolve(null);
    });
    const result = this.run(
      environment,
      () => {
        taken();
        return job;
      },
      opts,
    );
    const early = await Promise.race([held, result]);
    if (early) return early;
    const unused = setTimeout(() => withdraw(new Error('the render process was reserved and not used')), this.limits.timeoutMs);
    unused.unref();
    return {
      run(given) {
        clearTimeout(unused);
        supply(given);
        return result;
      },
      release() {
        clearTimeout(unused);
        withdraw(new Error('the render process was reserved and not needed'));
      },
    };
  }

  /** the process ids of the render processes (their memory is the service's too) */
  processIds(): number[] {
    return [...this.workers].map((w) => w.child.pid).filter((pid): pid is number => pid !== undefined);
  }

  /** Ends every render process; jobs waiting or running answer `closed`. */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.drain()) {
      if (task.queued) clearTimeout(task.queued);
      task.resolve({ ok: false, reason: 'closed', message: 'the render pool is closed' });
    }
    await Promise.all(
      [...this.workers].map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.child.exitCode !== null || w.child.signalCode !== null) return resolve();
            w.child.once('exit', () => resolve());
            // an idle process's handles are unreferenced: its exit must still be waited for
            this.hold(w, true);
            this.end(w);
          }),
      ),
    );
  }

  private pump(): void {
    while (!this.closed) {
      if (this.idle.length === 0 && this.workers.size >= this.limits.workers) break;
      const next = this.queue.take();
      if (!next) break;
      const worker = this.idle.pop() ?? this.spawnWorker();
      void this.start(worker, next.key, next.item);
    }
    // while there is room, one process stands by warm: the next job (most likely another
    // environment's, when one holds its share) starts without waiting for a process to load
    const room = this.workers.size > 0 && this.workers.size < this.limits.workers;
    if (!this.closed && this.starting && this.idle.length === 0 && room) {
      this.park(this.spawnWorker());
    }
  }

  private spawnWorker(): Worker {
    const { memoryMb } = this.limits;
    const env: NodeJS.ProcessEnv = {};
    for (const name of PASSED_ENV) if (process.env[name] !== undefined) env[name] = process.env[name];
    const options = {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'] as ('ignore' | 'pipe' | 'ipc')[],
      serialization: 'advanced' as const,
      env,
    };
    // Where the shell can limit the data segment, that limit bounds everything the process allocates,
    // native code and the JavaScript heap alike; where it cannot raise it that far, a lower hard limit
    // is in force already. The heap's own limit is then set above it: under a low heap limit V8
    // collects so often that a PDF page took twice the processor time. Elsewhere the heap limit is the bound.
    const limited = process.platform === 'linux' && existsSync('/bin/sh');
    // V8 sizes a fresh heap's old generation from what it holds (about 22 MB here), so a render process
    // ran a full collection every six jobs or so (88 in 600 thumbnails against 4 in the service's own
    // heap): a third more processor time a job. A floor of 64 MB (an eighth of the default limit) made it
    // 2, and the heap it keeps no larger; the limits above and the retirement after a job are unchanged.
    const initialHeapMb = Math.max(8, Math.min(INITIAL_HEAP_MB, Math.floor(memoryMb / 4)));
    const args = [
      `--max-old-space-size=${limited ? memoryMb * 4 : memoryMb}`,
      `--initial-old-space-size=${initialHeapMb}`,
      WORKER_FILE,
    ];
    const child = limited
      ? spawn(
          '/bin/sh',
          ['-c', 'ulimit -d "$0" 2>/dev/null; exec "$@"', String(memoryMb * 1024), process.execPath, ...args],
          options,
        )
      : spawn(process.execPath, args, options);
    const worker: Worker = {
      child,
      ready: Promise.resolve(false),
      jobs: 0,
      running: null,
      idleTimer: null,
      stderr: '',
      killed: false,
      started: false,
    };
    this.workers.add(worker);
    child.stderr?.on('data', (c: Buffer) => {
      worker.stderr = (worker.stderr + c.toString('utf8')).slice(-2000);
    });
    worker.ready = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        resolve(false);
        this.end(worker);
      }, START_TIMEOUT_MS);
      child.once('message', () => {
        clearTimeout(timer);
        worker.started = true;
        this.starting = true;
        resolve(true);
      });
      child.once('exit', () => {
        clearTimeout(timer);
        if (!worker.started) this.starting = false;
        resolve(false);
      });
      child.once('error', () => resolve(false));
    });
    child.on('message', (m: { id?: number; result?: JobResult; rss?: number }) => this.answered(worker, m));
    child.once('exit', (code, signal) => this.exited(worker, code, signal));
    return worker;
  }

  private async start(worker: Worker, key: string, task: Task): Promise<void> {
    if (task.queued) clearTimeout(task.queued);
    if (worker.idleTimer) clearTimeout(worker.idleTimer);
    worker.idleTimer = null;
    this.hold(worker, true);
    const id = ++this.seq;
    worker.running = { task, key, id, timer: null };
    if (!(await worker.ready)) {
      // not the content's doing: nothing is remembered of it
      this.finish(worker, { ok: false, reason: 'unavailable', message: 'the render process did not start' });
      this.end(worker);
      return;
    }
    let job: RenderJob;
    try {
      job = typeof task.job === 'function' ? await task.job() : task.job;
    } catch (err) {
      this.finish(worker, { ok: false, reason: 'unavailable', message: err instanceof Error ? err.message : String(err) });
      this.release(worker);
      return;
    }
    if (worker.running?.id !== id) return;
    const cpuBefore = cpuMsOf(worker.child.pid);
    worker.running.timer = setTimeout(() => {
      const cpu = cpuMsOf(worker.child.pid);
      const used = cpu === null || cpuBefore === null ? null : cpu - cpuBefore;
      this.finish(
        worker,
        used !== null && used < this.limits.timeoutMs / 4
          ? { ok: false, reason: 'starved', message: `ended after ${this.limits.timeoutMs} ms with ${used} ms of processor time` }
          : { ok: false, reason: 'timeout', message: `ended after ${this.limits.timeoutMs} ms` },
      );
      this.end(worker);
    }, this.limits.timeoutMs);
    worker.jobs += 1;
    worker.child.send({ id, job }, (err) => {
      if (!err) return;
      this.finish(worker, { ok: false, reason: 'crashed', message: `the job could not be sent: ${err.message}` });
      this.end(worker);
    });
  }

  private answered(worker: Worker, m: { id?: number; result?: JobResult; rss?: number }): void {
    if (m.id === undefined || worker.running?.id !== m.id || !m.result) return;
    const r = m.result;
    this.finish(worker, r.ok ? { ok: true, bytes: Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength) } : r);
    // memory a job leaves behind (fragments, caches) goes with its process
    if ((m.rss ?? 0) > (this.limits.memoryMb / 2) * 1024 * 1024) this.end(worker);
    else this.release(worker);
  }

  /** a render process that finished a job waits for the next, or leaves when it has done enough */
  private release(worker: Worker): void {
    if (this.closed || worker.jobs >= this.limits.jobsPerWorker) {
      this.end(worker);
      return;
    }
    this.park(worker);
    this.pump();
  }

  /** an idle render process waits for work, and leaves after `idleMs` without any */
  private park(worker: Worker): void {
    this.hold(worker, false);
    worker.idleTimer = setTimeout(() => {
      const i = this.idle.indexOf(worker);
      if (i >= 0) this.idle.splice(i, 1);
      this.end(worker);
    }, this.limits.idleMs);
    worker.idleTimer.unref();
    this.idle.push(worker);
  }

  private exited(worker: Worker, code: number | null, signal: NodeJS.Signals | null): void {
    this.workers.delete(worker);
    const i = this.idle.indexOf(worker);
    if (i >= 0) this.idle.splice(i, 1);
    if (worker.idleTimer) clearTimeout(worker.idleTimer);
    if (worker.running && this.closed) {
      this.finish(worker, { ok: false, reason: 'closed', message: 'the render pool is closed' });
    } else if (worker.running) {
      const outOfMemory = /out of memory|allocation failed|ENOMEM|Cannot allocate/i.test(worker.stderr);
      this.finish(worker, {
        ok: false,
        reason: outOfMemory ? 'memory' : 'crashed',
        message: outOfMemory
          ? `ran out of its ${this.limits.memoryMb} MB`
          : `the render process ended (${signal ?? `exit code ${code}`})`,
      });
    }
    this.pump();
  }

  private finish(worker: Worker, result: RenderResult): void {
    const running = worker.running;
    if (!running) return;
    worker.running = null;
    if (running.timer) clearTimeout(running.timer);
    this.queue.done(running.key);
    running.task.resolve(result);
  }

  /** ends a render process (at once: it may be in the middle of a runaway job) */
  private end(worker: Worker): void {
    if (worker.killed) return;
    worker.killed = true;
    worker.child.kill('SIGKILL');
  }

  /** an idle render process does not keep the service's process alive */
  private hold(worker: Worker, busy: boolean): void {
    const handles = [worker.child, worker.child.channel, worker.child.stderr] as (
      | { ref(): void; unref(): void }
      | null
      | undefined
    )[];
    for (const h of handles) {
      if (busy) h?.ref();
      else h?.unref();
    }
  }
}

/** processor time a process has used (user and system), from /proc; null where there is none */
function cpuMsOf(pid: number | undefined): number | null {
  if (pid === undefined || process.platform !== 'linux') return null;
  try {
    // the fields after the command's name (which may hold spaces): utime and stime are the 12th and 13th
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** Linux's USER_HZ, 100 on every common architecture */
const CLOCK_TICKS = 100;

let shared: RenderPool | null = null;

/** The process's own pool, from the RENDER_* settings: for callers whose context has none (the CLI, the worker). */
export function sharedRenderPool(): RenderPool {
  shared ??= new RenderPool(renderLimitsFromEnv());
  return shared;
}
