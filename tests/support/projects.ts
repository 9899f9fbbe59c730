import { expect } from 'vitest';
import type { ApiClient } from './service.js';

type Envelope<T> = { data: T; errors: unknown; debug: unknown };

export interface ReferenceData {
  hourTypes: { id: string; label: string; tariff: string | null }[];
  costTypes: { id: string; label: string; tariff: number | null }[];
  statuses: { id: string; label: string; is_closed: boolean }[];
  defaultServices: { id: string; name: string; hour_types: unknown[] }[];
}

/** The environment's seeded reference data, read through v2 as an integration would. */
export async function referenceData(client: ApiClient): Promise<ReferenceData> {
  const list = async <T>(path: string): Promise<T[]> => {
    const res = await client.v2('GET', path);
    expect(res.status, res.text).toBe(200);
    return (res.body as Envelope<T[]>).data;
  };
  return {
    hourTypes: await list('/hours/hourstype'),
    costTypes: await list('/costs/coststype'),
    statuses: await list('/projects/projectstatus'),
    defaultServices: await list('/services/defaultservice'),
  };
}

/** POST through v2; answers the new id (and fails the test on anything but 200). */
export async function v2Create(client: ApiClient, path: string, body: Record<string, unknown>): Promise<string> {
  const res = await client.v2('POST', path, body);
  expect(res.status, res.text).toBe(200);
  return (res.body as Envelope<{ id: string }>).data.id;
}

export async function v2Get<T = Record<string, unknown>>(client: ApiClient, path: string): Promise<T> {
  const res = await client.v2('GET', path);
  expect(res.status, res.text).toBe(200);
  return (res.body as Envelope<T>).data;
}

export function errorsOf(body: unknown): string {
  return JSON.stringify((body as { errors?: unknown })?.errors ?? body);
}
