/** Delivery settings of webhooks; every one can be set through the environment (README, Webhooks). */
export interface WebhookConfig {
  /** accept targets on loopback, private and link-local addresses (tests, local development) */
  allowPrivateTargets: boolean;
  /** a delivery attempt that has no answer after this is a time-out */
  timeoutMs: number;
  /** first retry delay; each further retry doubles it, up to maxDelayMs, with jitter */
  retryBaseMs: number;
  retryMaxDelayMs: number;
  /** after this long without success a delivery is marked failed (about a day) */
  retryWindowMs: number;
  /**
   * DB_LISTEN: the process may hold a LISTEN connection, to hear committed events at once and
   * to forget remembered reads (custom-field definitions) when they change; off where
   * LISTEN cannot work, e.g. behind a pooler in transaction mode (the worker polls, nothing is remembered)
   */
  listen: boolean;
  /** how often an idle worker looks for new events and due deliveries when it hears no notifications */
  pollIntervalMs: number;
  /**
   * how often it still looks while it hears them: only what no notification announces
   * waits for this (a lapsed lease of a dead worker, the end of a maintenance window)
   */
  listeningPollIntervalMs: number;
  /** deliveries (to different subscriptions) a worker sends at once */
  concurrency: number;
  /** the environment's domain is `<environment>.<publicDomain>` (X-Webhook-Environment header) */
  publicDomain: string;
}

export const DEFAULT_WEBHOOK_CONFIG: WebhookConfig = {
  allowPrivateTargets: false,
  timeoutMs: 10_000,
  retryBaseMs: 10_000,
  retryMaxDelayMs: 60 * 60_000,
  retryWindowMs: 24 * 60 * 60_000,
  listen: true,
  pollIntervalMs: 100,
  listeningPollIntervalMs: 5_000,
  concurrency: 8,
  publicDomain: 'localhost',
};

function num(v: string | undefined, fallback: number, name: string): number {
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${v}"`);
  return n;
}

export function webhookConfigFromEnv(env: NodeJS.ProcessEnv = process.env): WebhookConfig {
  const d = DEFAULT_WEBHOOK_CONFIG;
  return {
    allowPrivateTargets: ['1', 'true', 'yes', 'on'].includes((env.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? '').toLowerCase()),
    timeoutMs: num(env.WEBHOOK_TIMEOUT_MS, d.timeoutMs, 'WEBHOOK_TIMEOUT_MS'),
    retryBaseMs: num(env.WEBHOOK_RETRY_BASE_MS, d.retryBaseMs, 'WEBHOOK_RETRY_BASE_MS'),
    retryMaxDelayMs: num(env.WEBHOOK_RETRY_MAX_DELAY_MS, d.retryMaxDelayMs, 'WEBHOOK_RETRY_MAX_DELAY_MS'),
    retryWindowMs: num(env.WEBHOOK_RETRY_WINDOW_MS, d.retryWindowMs, 'WEBHOOK_RETRY_WINDOW_MS'),
    listen: !['0', 'false', 'no', 'off'].includes((env.DB_LISTEN ?? '').toLowerCase()),
    pollIntervalMs: num(env.WEBHOOK_POLL_INTERVAL_MS, d.pollIntervalMs, 'WEBHOOK_POLL_INTERVAL_MS'),
    listeningPollIntervalMs: num(
      env.WEBHOOK_LISTENING_POLL_INTERVAL_MS,
      d.listeningPollIntervalMs,
      'WEBHOOK_LISTENING_POLL_INTERVAL_MS',
    ),
    concurrency: Math.max(1, num(env.WEBHOOK_CONCURRENCY, d.concurrency, 'WEBHOOK_CONCURRENCY')),
    publicDomain: env.PUBLIC_DOMAIN || d.publicDomain,
  };
}
