import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { expect } from 'vitest';

type Schema = Record<string, unknown>;
const here = path.dirname(fileURLToPath(import.meta.url));

/** The reference v2 contract (../shared/reference/v2-contract.json). */
export const referenceContract = JSON.parse(
  readFileSync(path.resolve(here, '../../../shared/reference/v2-contract.json'), 'utf8'),
) as {
  paths: Record<string, Record<string, { responses?: Record<string, { schema?: { $ref?: string } }> }>>;
  definitions: Record<string, Schema>;
};

/** A definition made strict: all its properties required, each nullable; formats dropped (float is not JSON Schema). */
function strict(schema: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'format' || key === 'default') continue;
    out[key] = value;
  }
  if (typeof out.$ref === 'string') return { anyOf: [{ $ref: out.$ref }, { type: 'null' }] };
  if (out.items && typeof out.items === 'object') out.items = strictItem(out.items as Schema);
  if (out.properties) {
    const props = out.properties as Record<string, Schema>;
    out.properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, nullable(strict(v))]));
    out.required = Object.keys(props);
    out.type = 'object';
  }
  return out;
}

function strictItem(schema: Schema): Schema {
  return typeof schema.$ref === 'string' ? { $ref: schema.$ref } : strict(schema);
}

function nullable(schema: Schema): Schema {
  if (schema.anyOf) return schema;
  const out = { ...schema };
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  return out;
}

/**
 * Validators of the reference definitions made strict. `patch` adjusts definitions
 * where the contract says the reference is wrong (say so beside the patch).
 */
export function contractValidator(patch?: (definitions: Record<string, Schema>) => void) {
  const definitions = structuredClone(referenceContract.definitions);
  patch?.(definitions);
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addSchema({
    $id: 'contract',
    definitions: Object.fromEntries(Object.entries(definitions).map(([k, v]) => [k, strict(v)])),
  });
  const validators = new Map<string, ValidateFunction>();
  const validatorFor = (definition: string): ValidateFunction => {
    let v = validators.get(definition);
    if (!v) {
      v = ajv.compile({ $ref: `contract#/definitions/${definition}` });
      validators.set(definition, v);
    }
    return v;
  };
  return {
    validatorFor,
    /** every field the definition names is present (null where there is no value), with the definition's type */
    conforms(definition: string, value: unknown) {
      const validate = validatorFor(definition);
      expect(validate(value) ? [] : validate.errors, definition).toEqual([]);
    },
  };
}
