import { describe, expect, it } from 'vitest';
import { sqlParams } from '../src/shared/sql-params.js';
import { leaseMsFor, renewDue, retryDelayMs, runContinues, verdict } from '../src/webhooks/delivery-policy.js';
import { DEFAULT_WEBHOOK_CONFIG } from '../src/webhooks/webhook-config.js';

const config = { ...DEFAULT_WEBHOOK_CONFIG, retryBaseMs: 1_000, retryMaxDelayMs: 8_000, retryWindowMs: 60_000 };

describe('named SQL parameters', () => {
  it('numbers each name once, in the order given, with its value at that position', () => {
    const { p, values } = sqlParams({ id: 'a', leaseMs: 5, ids: ['x', 'y'] });
    expect(p).toEqual({ id: '$1', leaseMs: '$2', ids: '$3' });
    expect(values).toEqual(['a', 5, ['x', 'y']]);
  });
});

describe('webhook delivery run policy', () => {
  it('backs off exponentially from the base, capped, with equal jitter', () => {
    expect(retryDelayMs(config, 1, () => 0)).toBe(500);
    expect(retryDelayMs(config, 1, () => 1)).toBe(1_000);
    expect(retryDelayMs(config, 3, () => 1)).toBe(4_000);
    expect(retryDelayMs(config, 10, () => 0)).toBe(4_000);
    expect(retryDelayMs(config, 10, () => 1)).toBe(8_000);
  });

  it('a success succeeds; a failure is retried inside the window and fails past it', () => {
    const retryFrom = new Date(1_000_000);
    expect(verdict(config, { attempt: 1, retryFrom }, { error: null }, 1_000_000)).toEqual({ status: 'succeeded', retryInMs: 0 });
    const again = verdict(config, { attempt: 1, retryFrom }, { error: 'answered 500' }, 1_000_000);
    expect(again.status).toBe('pending');
    expect(again.retryInMs).toBeGreaterThanOrEqual(500);
    expect(again.retryInMs).toBeLessThanOrEqual(1_000);
    expect(verdict(config, { attempt: 1, retryFrom }, { error: 'answered 500' }, 1_000_000 + 59_900)).toEqual({
      status: 'failed',
      retryInMs: 0,
    });
  });

  it('a run goes on only after a success, with more claimed, while the worker keeps going', () => {
    expect(runContinues({ error: null }, 2, () => true)).toBe(true);
    expect(runContinues({ error: 'answered 500' }, 2, () => true)).toBe(false);
    expect(runContinues({ error: null }, 0, () => true)).toBe(false);
    expect(runContinues({ error: null }, 2, () => false)).toBe(false);
  });

  it('a lease outlives two time-outs and is renewed once a quarter of it has passed', () => {
    const lease = leaseMsFor({ ...config, timeoutMs: 10_000 });
    expect(lease).toBe(21_000);
    expect(renewDue(lease / 4 - 1, lease)).toBe(false);
    expect(renewDue(lease / 4, lease)).toBe(true);
  });
});
