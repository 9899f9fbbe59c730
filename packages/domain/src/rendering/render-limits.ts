/** The bounds of expensive work (thumbnails, PDF pages, invoice PDFs): docs/uploads-and-storage.md, "Rendering limits". */
export interface RenderLimits {
  /** RENDER_WORKERS: render processes at most, each running one job at a time */
  workers: number;
  /** RENDER_WORKERS_PER_ENVIRONMENT: how many of them one environment's jobs may hold at once */
  perEnvironment: number;
  /**
   * RENDER_MEMORY_MB: the memory one render process may take: its data segment (RLIMIT_DATA, on
   * Linux), which holds every allocation, native (libvips, Skia, array buffers) and the JavaScript
   * heap alike; elsewhere its JavaScript heap only. Past it a job fails or its process ends. After a
   * job that leaves it holding more than half of this, it is replaced by a fresh one.
   */
  memoryMb: number;
  /** RENDER_TIMEOUT_MS: a job running longer is ended (its process killed) */
  timeoutMs: number;
  /** RENDER_QUEUE_TIMEOUT_MS: a job that waited this long for a render process is given up (not remembered) */
  queueTimeoutMs: number;
  /** RENDER_QUEUE_PER_ENVIRONMENT: jobs one environment may have waiting; more are given up at once */
  queuePerEnvironment: number;
  /** RENDER_MAX_PAINTS: how often a PDF page may draw forms, nesting multiplied out */
  maxPaints: number;
  /** RENDER_MAX_CONTENT_BYTES: how many bytes of a PDF page's content streams are read, decoded */
  maxContentBytes: number;
  /** RENDER_MAX_IMAGE_BYTES: the largest image file a thumbnail is made of (larger: its icon) */
  maxImageBytes: number;
  /** RENDER_IDLE_MS: an idle render process leaves after this long */
  idleMs: number;
  /** RENDER_JOBS_PER_WORKER: a render process is replaced after this many jobs */
  jobsPerWorker: number;
}

export const DEFAULT_RENDER_LIMITS: Readonly<RenderLimits> = Object.freeze({
  workers: 3,
  perEnvironment: 2,
  memoryMb: 512,
  timeoutMs: 15_000,
  queueTimeoutMs: 15_000,
  queuePerEnvironment: 64,
  maxPaints: 100_000,
  maxContentBytes: 64 * 1024 * 1024,
  maxImageBytes: 64 * 1024 * 1024,
  idleMs: 5 * 60_000,
  jobsPerWorker: 1_000,
});

/** The limits with their defaults filled in; one environment never holds every render process when there are two or more. */
export function renderLimits(given: Partial<RenderLimits> = {}): RenderLimits {
  const limits = { ...DEFAULT_RENDER_LIMITS, ...given };
  limits.workers = Math.max(1, limits.workers);
  const share = given.perEnvironment ?? (given.workers !== undefined ? limits.workers - 1 : DEFAULT_RENDER_LIMITS.perEnvironment);
  limits.perEnvironment = Math.min(limits.workers, Math.max(1, share));
  return limits;
}

const ENV_NAMES: Record<keyof RenderLimits, string> = {
  workers: 'RENDER_WORKERS',
  perEnvironment: 'RENDER_WORKERS_PER_ENVIRONMENT',
  memoryMb: 'RENDER_MEMORY_MB',
  timeoutMs: 'RENDER_TIMEOUT_MS',
  queueTimeoutMs: 'RENDER_QUEUE_TIMEOUT_MS',
  queuePerEnvironment: 'RENDER_QUEUE_PER_ENVIRONMENT',
  maxPaints: 'RENDER_MAX_PAINTS',
  maxContentBytes: 'RENDER_MAX_CONTENT_BYTES',
  maxImageBytes: 'RENDER_MAX_IMAGE_BYTES',
  idleMs: 'RENDER_IDLE_MS',
  jobsPerWorker: 'RENDER_JOBS_PER_WORKER',
};

export function renderLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): RenderLimits {
  const given: Partial<RenderLimits> = {};
  for (const [key, name] of Object.entries(ENV_NAMES) as [keyof RenderLimits, string][]) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${v}"`);
    given[key] = n;
  }
  return renderLimits(given);
}
