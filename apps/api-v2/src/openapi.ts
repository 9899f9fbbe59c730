import { V2_READ_ALIASES } from './resources/v2-read-aliases.js';
import { z } from 'zod';
import { withRateLimitHeaders } from '@bo/http';
import type { AnyV2Operation } from './resources/v2-operation.js';
import { type AnyV2Resource, entityOf } from './resources/v2-resource.js';
import { storagePaths } from './resources/storage/storage-openapi.js';

/**
 * The OpenAPI 3.1 document of v2, generated from the v2 resource declarations:
 * each resource's read shape comes from its entity's output schema renamed to v2
 * names, plus what its v2 mapping adds (v2-only nesting and constants), found by
 * running the mapping over a sample row; write bodies come from the domain's input
 * schemas, renamed the same way.
 */
type Json = Record<string, unknown>;

const toJson = (schema: z.ZodType): Json => {
  const out = z.toJSONSchema(schema, {
    unrepresentable: 'any',
    io: 'input',
    override: (ctx) => {
      const def = (ctx.zodSchema as { _zod: { def: { type: string } } })._zod.def;
      if (def.type === 'date') {
        ctx.jsonSchema.type = 'string';
        ctx.jsonSchema.description = 'YYYY-MM-DD HH:MM:SS (UTC)';
      }
    },
  }) as Json;
  delete out.$schema;
  return out;
};

/** Renames the properties of a JSON schema (at every depth) with the resource's v2 names. */
function renamed(schema: unknown, toV2: (n: string) => string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => renamed(s, toV2));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema as Json)) {
    if (k === 'properties' && v && typeof v === 'object') {
      out[k] = Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [toV2(p), renamed(s, toV2)]));
    } else if (k === 'required' && Array.isArray(v)) out[k] = v.map((p) => toV2(String(p)));
    else out[k] = renamed(v, toV2);
  }
  return out;
}

/** A value of the schema's shape, every optional part present, for running a mapping over. */
function sample(schema: z.ZodType): unknown {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  switch (def.type) {
    case 'object': {
      const shape = (schema as unknown as { shape: Record<string, z.ZodType> }).shape;
      return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, sample(v)]));
    }
    case 'array':
      return [sample(def.element as z.ZodType)];
    case 'nullable':
    case 'optional':
    case 'default':
      return sample(def.innerType as z.ZodType);
    case 'union':
      return sample((def.options as z.ZodType[])[0] as z.ZodType);
    case 'string':
      return 'x';
    case 'number':
    case 'int':
      return 1;
    case 'boolean':
      return true;
    case 'date':
      return new Date(0);
    case 'record':
      return {};
    case 'enum':
      return Object.values((def.entries as Record<string, unknown>) ?? {})[0] ?? null;
    case 'literal':
      return (def.values as unknown[] | undefined)?.[0] ?? null;
    case 'pipe':
      return sample(def.in as z.ZodType);
    case 'lazy':
      return sample((def.getter as () => z.ZodType)());
    default:
      return null;
  }
}

/** A JSON schema of a value the mapping produced where the entity does not say (constants, v2 nesting). */
function inferred(value: unknown): Json {
  if (value === null) return { type: 'null', description: 'not kept by this service: always null' };
  if (Array.isArray(value)) return { type: 'array', items: value.length ? inferred(value[0]) : {} };
  if (typeof value === 'object') {
    const props = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, inferred(v)]));
    return { type: 'object', properties: props, required: Object.keys(props) };
  }
  return { type: typeof value === 'number' ? 'number' : typeof value };
}

function readSchema(r: AnyV2Resource): Json {
  const entity = entityOf(r);
  const entityJson = toJson(entity.schema) as { properties?: Record<string, Json> };
  const fromEntity = (renamed(entityJson, r.names.toV2) as { properties?: Record<string, Json> }).properties ?? {};
  const shape = r.read(sample(entity.schema)) as Json;
  const properties: Record<string, Json> = {};
  for (const [key, value] of Object.entries(shape)) {
    // the read aliases are documented below, the same way for every resource
    if (Object.hasOwn(V2_READ_ALIASES, key)) continue;
    // a field the mapping passes through keeps the entity's schema; one it builds is described from what it builds
    const domain = r.names.toDomain(key);
    const declared = fromEntity[key];
    const passedThrough = declared && domain in (entity.fields as object) && !(r.documentAsBuilt ?? []).includes(key);
    properties[key] = passedThrough ? declared : inferred(value);
  }
  // every read carries them where the field they name is there (mount.ts, withReadAliases)
  for (const [alias, target] of Object.entries(V2_READ_ALIASES)) {
    const named = properties[target];
    if (named) properties[alias] = { ...named, description: `${target}, by its legacy name` };
  }
  return { type: 'object', properties, required: Object.keys(properties) };
}

const componentName = (path: string) =>
  path
    .split('/')
    .map((s) => s.charAt(0).toUpperCase() + s.slice(1))
    .join('');

const envelope = (data: Json, list: boolean): Json => ({
  type: 'object',
  required: ['data', 'errors', 'debug'],
  properties: {
    data: list ? { type: 'array', items: data } : data,
    errors: { type: ['array', 'null'], items: { type: 'string' } },
    debug: { type: ['object', 'null'] },
    ...(list
      ? {
          metadata: {
            type: 'object',
            properties: { count: { type: 'integer' }, limit: { type: 'integer' }, offset: { type: 'integer' } },
          },
        }
      : {}),
  },
});

const ERROR = { $ref: '#/components/schemas/Error' };
const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [String(s), { description: `error (${s})`, content: { 'application/json': { schema: ERROR } } }]),
  );

const LIST_PARAMETERS = [
  {
    name: 'q',
    in: 'query',
    style: 'deepObject',
    explode: true,
    description:
      'filters: q[field]=v (exact; `*` wildcards, case-insensitive; `null`; `*` alone = not null), q[field][ge|gt|le|lt|in|nin]=v, q[or][field]=v, nested paths q[a.b.c], custom fields q[custom_fields.<name>]',
    schema: { type: 'object', additionalProperties: { type: 'string' } },
  },
  { name: 'select', in: 'query', description: 'comma-separated fields; `a.` keeps all of a', schema: { type: 'string' } },
  { name: 'sort', in: 'query', description: 'comma-separated fields, `-` for descending', schema: { type: 'string' } },
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 100 } },
  { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
  { name: 'metadata', in: 'query', description: 'comma-separated of count, limit, offset', schema: { type: 'string' } },
];
const ID = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
/** lost-update protection (docs/etags.md): a read's ETag, sent back with a write */
const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  description: 'the ETag of the copy held: 304 when it is still current',
  schema: { type: 'string' },
};
const IF_MATCH = {
  name: 'If-Match',
  in: 'header',
  description: 'the ETag the write is based on: 412 and nothing changed when the record changed since',
  schema: { type: 'string' },
};
/** safe retries (docs/idempotency.md) */
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  description:
    'any string up to 255 characters: a repeat of this write with the same key and body gets the first answer (Idempotent-Replayed: true) for 24 hours',
  schema: { type: 'string', maxLength: 255 },
};
const ETAG_HEADER = { ETag: { description: 'the record’s version', schema: { type: 'string' } } };
const PRECONDITION_FAILED = { '412': { description: 'If-Match: the record changed since that version was read' } };

export function buildV2Document(resources: AnyV2Resource[], operations: AnyV2Operation[] = []): Json {
  const paths: Record<string, Json> = {};
  const schemas: Record<string, Json> = {
    Error: envelope({ type: 'null' }, false),
  };
  for (const r of resources) {
    const name = componentName(r.path);
    schemas[name] = readSchema(r);
    const item = { $ref: `#/components/schemas/${name}` };
    const tags = [r.path.split('/')[0]];
    const body = (schema: z.ZodType | undefined) =>
      schema ? { required: true, content: { 'application/json': { schema: renamed(toJson(schema), r.names.toV2) } } } : undefined;
    const idAnswer = {
      description: 'the id',
      content: { 'application/json': { schema: envelope({ type: 'object', properties: { id: { type: 'string' } } }, false) } },
    };
    const collection: Json = {
      get: {
        tags,
        operationId: `${r.path}.list`,
        parameters: LIST_PARAMETERS,
        responses: {
          '200': { description: 'a page', content: { 'application/json': { schema: envelope(item, true) } } },
          ...errors(400, 401, 403, 429),
        },
      },
    };
    const single: Json = {
      get: {
        tags,
        operationId: `${r.path}.get`,
        parameters: [ID, LIST_PARAMETERS[1], IF_NONE_MATCH],
        responses: {
          '200': {
            description: 'one record',
            headers: ETAG_HEADER,
            content: { 'application/json': { schema: envelope(item, false) } },
          },
          '304': { description: 'If-None-Match: the copy held is current', headers: ETAG_HEADER },
          ...errors(401, 403, 404, 429),
        },
      },
    };
    if (r.inputs?.create && r.methods?.create !== false) {
      collection.post = {
        tags,
        operationId: `${r.path}.create`,
        parameters: [IDEMPOTENCY_KEY],
        requestBody: body(r.inputs.create),
        responses: { '200': idAnswer, ...errors(400, 401, 403, 415, 429) },
      };
    }
    if (r.inputs?.update && r.methods?.update !== false) {
      single.put = {
        tags,
        operationId: `${r.path}.update`,
        parameters: [ID, IF_MATCH, IDEMPOTENCY_KEY],
        requestBody: body(r.inputs.update),
        responses: { '200': idAnswer, ...errors(400, 401, 403, 404, 415, 429), ...PRECONDITION_FAILED },
      };
    }
    if (r.inputs?.remove && r.methods?.delete !== false) {
      single.delete = {
        tags,
        operationId: `${r.path}.delete`,
        parameters: [ID, IF_MATCH, IDEMPOTENCY_KEY],
        responses: { '200': idAnswer, ...errors(400, 401, 403, 404, 429), ...PRECONDITION_FAILED },
      };
    }
    paths[`/${r.path}`] = collection;
    paths[`/${r.path}/{id}`] = single;
  }
  for (const op of operations) {
    const schema = renamed(toJson(op.output), op.names.toV2) as Json;
    paths[`/${op.path}`] = {
      ...paths[`/${op.path}`],
      [op.method.toLowerCase()]: {
        tags: [op.path.split('/')[0]],
        // one path may have several methods (hours/submission: POST and PUT): the method keeps the id unique
        operationId: `${op.path}.${op.method.toLowerCase()}`,
        summary: op.summary,
        ...(op.method === 'GET'
          ? {}
          : {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: renamed(toJson(op.input), op.names.toV2) } },
              },
            }),
        responses: {
          '200': { description: 'done', content: { 'application/json': { schema: envelope(schema, false) } } },
          ...errors(400, 401, 403, 415, 429),
        },
      },
    };
  }
  Object.assign(paths, storagePaths());
  return {
    openapi: '3.1.0',
    info: {
      title: 'Business operations API v2',
      version: '2.0.0',
      description:
        'REST resources with the collection query language. Every answer is the envelope {data, errors, debug}; TLS only; authenticate with the Authentication-Key and Authentication-Secret headers.',
    },
    servers: [{ url: '/api/v2' }],
    security: [{ key: [], secret: [] }],
    paths: withRateLimitHeaders(paths),
    components: {
      schemas,
      securitySchemes: {
        key: { type: 'apiKey', in: 'header', name: 'Authentication-Key' },
        secret: { type: 'apiKey', in: 'header', name: 'Authentication-Secret' },
      },
    },
  };
}
