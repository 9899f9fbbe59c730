import { z } from 'zod';
import { withRateLimitHeaders } from '@bo/http';
import type { Endpoint, NamedSchema } from './endpoints/index.js';

/** Problem bodies as the contract names them: Error (400, 403, 404, 500) and ConstraintViolation (422). */
const ErrorSchema = z.object({
  type: z.string().meta({ description: '/errors/<status>' }),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
});
const ConstraintViolationSchema = ErrorSchema.extend({
  type: z.string().meta({ description: '/validation_errors/<uuid> for validation, /errors/422 for a business rule' }),
  violations: z
    .array(z.object({ propertyPath: z.string(), message: z.string(), code: z.string() }))
    .optional()
    .meta({ description: 'one entry per offending property; absent when a business rule refused the request' }),
});

const PROBLEM_TYPES = ['application/problem+json', 'application/json'];

function schemaComponents(requests: Set<string>, declared: NamedSchema[]): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries({
    ...Object.fromEntries(declared.map((d) => [d.name, d.schema])),
    Error: ErrorSchema,
    ConstraintViolation: ConstraintViolationSchema,
  })) {
    registry.add(schema, { id });
  }
  const out: Record<string, unknown> = {};
  for (const io of ['input', 'output'] as const) {
    const { schemas } = z.toJSONSchema(registry, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      uri: (id) => `#/components/schemas/${id}`,
    });
    for (const [id, schema] of Object.entries(schemas)) {
      // request schemas are documented as clients send them, responses as the service answers
      if ((io === 'input') !== requests.has(id)) continue;
      const { $schema: _s, $id: _i, ...rest } = schema as Record<string, unknown>;
      out[id] = rest;
    }
  }
  return out;
}

const ref = (name: string | NamedSchema) => ({ $ref: `#/components/schemas/${typeof name === 'string' ? name : name.name}` });
const nameOf = (s: string | NamedSchema) => (typeof s === 'string' ? s : s.name);

/** The named schemas the endpoints declare. */
function declaredSchemas(table: Record<string, Endpoint>): NamedSchema[] {
  const out = new Map<string, NamedSchema>();
  for (const e of Object.values(table)) {
    for (const s of [e.doc?.request, e.doc?.response]) if (s && typeof s !== 'string') out.set(s.name, s);
  }
  return [...out.values()];
}

function problemResponse(status: number) {
  const schema = status === 422 ? ref('ConstraintViolation') : ref('Error');
  return { description: `problem details (${status})`, content: Object.fromEntries(PROBLEM_TYPES.map((t) => [t, { schema }])) };
}

function operation(name: string, e: Endpoint): { method: 'get' | 'post'; path: string; op: Record<string, unknown> } {
  const doc = e.doc;
  const isQuery = e.kind !== 'command';
  const withId = e.kind === 'get' || ((e.kind === 'query' || e.kind === 'command') && e.withId === true);
  const parameters: unknown[] = [];
  if (withId) parameters.push({ name: 'id', in: 'path', required: true, schema: { type: 'string' } });
  // lost-update protection (docs/etags.md): a get's ETag, sent back with a command on the record
  if (e.kind === 'get') {
    parameters.push({
      name: 'If-None-Match',
      in: 'header',
      description: '304 when the copy held is current',
      schema: { type: 'string' },
    });
  }
  if (e.kind === 'command') {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      description:
        'any string up to 255 characters: a repeat of this command with the same key and body gets the first answer (Idempotent-Replayed: true) for 24 hours',
      schema: { type: 'string', maxLength: 255 },
    });
  }
  if (e.kind === 'command' && withId) {
    parameters.push({
      name: 'If-Match',
      in: 'header',
      description: 'the ETag the command is based on: 412 and nothing changed when the record changed since',
      schema: { type: 'string' },
    });
  }
  if (e.kind === 'query') {
    for (const p of e.params ?? [])
      parameters.push({ name: p.name, in: 'query', description: p.description, schema: { type: 'string' } });
  }
  if (e.kind === 'list') {
    parameters.push(
      { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
      { name: 'itemsPerPage', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 30, default: 30 } },
    );
    for (const f of Object.keys(e.filters)) {
      parameters.push({ name: f, in: 'query', description: 'exact match', schema: { type: 'string' } });
      parameters.push({
        name: `${f}[]`,
        in: 'query',
        description: 'any of several',
        schema: { type: 'array', items: { type: 'string' } },
      });
    }
  }
  const item = doc?.response ? ref(doc.response) : { type: 'object' };
  const body =
    e.kind === 'list'
      ? {
          type: 'object',
          required: ['items', 'page', 'itemsPerPage', 'totalItems', 'totalPages'],
          properties: {
            items: { type: 'array', items: item },
            page: { type: 'integer' },
            itemsPerPage: { type: 'integer' },
            totalItems: { type: 'integer' },
            totalPages: { type: 'integer' },
          },
        }
      : item;
  const success = e.kind === 'command' ? String(e.status) : '200';
  const errors = doc?.errors ?? (withId ? [403, 404] : [400, 403]);
  const op: Record<string, unknown> = {
    operationId: name,
    summary: doc?.summary ?? name,
    parameters,
    responses: {
      [success]: { description: 'success', content: { 'application/json': { schema: body } } },
      ...Object.fromEntries(errors.map((s) => [String(s), problemResponse(s)])),
      // every door's guard: credentials and the rate limit, whatever the operation
      '401': problemResponse(401),
      '429': problemResponse(429),
    },
  };
  if (!isQuery) {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: doc?.request ? ref(doc.request) : { type: 'object' } } },
    };
  }
  return { method: isQuery ? 'get' : 'post', path: `/${name}${withId ? '/{id}' : ''}`, op };
}

/** The OpenAPI 3.1 document of v3, built from the endpoint table and the domain's zod schemas. */
export function buildOpenApiDocument(table: Record<string, Endpoint>): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, e] of Object.entries(table)) {
    const { method, path, op } = operation(name, e);
    paths[path] = { ...paths[path], [method]: op };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Business operations API v3',
      version: '3.0.0',
      description: 'Commands (POST) and queries (GET) over the same data as v2. Errors are RFC 9457 problem details.',
    },
    servers: [{ url: '/api/v3' }],
    security: [{ bearer: [] }],
    paths: withRateLimitHeaders(paths),
    components: {
      schemas: schemaComponents(
        new Set(Object.values(table).flatMap((e) => (e.doc?.request ? [nameOf(e.doc.request)] : []))),
        declaredSchemas(table),
      ),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: '<API_KEY>:<API_SECRET>' } },
    },
  };
}
