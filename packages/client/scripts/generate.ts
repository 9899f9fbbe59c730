import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildV2Document } from '../../../apps/api-v2/src/openapi.js';
import { v2Operations, v2Resources } from '../../../apps/api-v2/src/resources/index.js';
import { endpoints } from '../../../apps/api-v3/src/endpoints/index.js';
import { buildOpenApiDocument } from '../../../apps/api-v3/src/openapi.js';
import { typesOf } from './generate-types.js';

/**
 * Writes src/generated/v2.ts and v3.ts from the two OpenAPI documents, built as the service serves
 * them at /api/v2/docs.json and /api/v3/docs.json (the test compares with the live ones).
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, '..', 'src', 'generated');
await writeFile(path.join(out, 'v2.ts'), await typesOf(buildV2Document(v2Resources, v2Operations), 'The v2 API'));
await writeFile(
  path.join(out, 'v3.ts'),
  await typesOf(buildOpenApiDocument(Object.fromEntries(Object.entries(endpoints))), 'The v3 API'),
);
console.log(`wrote ${out}/v2.ts and v3.ts`);
