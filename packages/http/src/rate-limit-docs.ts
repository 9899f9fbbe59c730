/**
 * The rate-limit fields every door sends (the shared guard, docs/limits.md), as OpenAPI response
 * headers: one definition for the v2 and v3 documents.
 */
const text = (description: string) => ({ description, schema: { type: 'string' } });
const integer = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/** on every answer of a token while the rate limit is on (draft-ietf-httpapi-ratelimit-headers, and the older X- fields) */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': text('the token\'s budget: `"default";q=<requests>;w=60`'),
  RateLimit: text('what is left of it: `"default";r=<remaining>;t=<seconds until the window ends>`'),
  'X-RateLimit-Limit': integer('requests a token may make per minute'),
  'X-RateLimit-Remaining': integer('requests left in the current minute'),
} as const;

/** a 429 also says when to come back */
export const TOO_MANY_REQUESTS_HEADERS = {
  ...RATE_LIMIT_HEADERS,
  'Retry-After': integer('seconds to wait before the next request'),
} as const;

type Operation = { responses?: Record<string, { headers?: Record<string, unknown> }> };

/** Adds the rate-limit fields to every success answer and every 429 of an OpenAPI `paths` object (changed in place, answered). */
export function withRateLimitHeaders<P extends Record<string, Record<string, unknown>>>(paths: P): P {
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item) as Operation[]) {
      for (const [status, response] of Object.entries(op?.responses ?? {})) {
        if (status.startsWith('2')) response.headers = { ...RATE_LIMIT_HEADERS, ...response.headers };
        else if (status === '429') response.headers = { ...TOO_MANY_REQUESTS_HEADERS, ...response.headers };
      }
    }
  }
  return paths;
}
