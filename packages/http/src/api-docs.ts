import { createRequire } from 'node:module';
import path from 'node:path';
import { apiReference } from '@scalar/express-api-reference';
import type { Router } from 'express';

// the package exports only its modules; its browser bundle sits beside them in dist/
const SCALAR_BUNDLE = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')),
  'browser/standalone.js',
);

/**
 * Serves an API's OpenAPI document at /docs.json and a browsable reference at /docs,
 * whose viewer script is served from here too, so the page works with no internet.
 */
export function mountApiDocs(app: Router, title: string, document: () => Record<string, unknown>): void {
  let built: Record<string, unknown> | null = null;
  app.get('/docs.json', (_req, res) => {
    built ??= document();
    res.json(built);
  });
  app.get('/docs/standalone.js', (_req, res) => {
    // pnpm keeps packages under node_modules/.pnpm: a dot-folder that sendFile refuses by default
    res.type('application/javascript').sendFile(SCALAR_BUNDLE, { maxAge: '1d', dotfiles: 'allow' });
  });
  app.get('/docs', (req, res, next) => {
    const render = apiReference({
      url: `${req.baseUrl}/docs.json`,
      pageTitle: title,
      cdn: `${req.baseUrl}/docs/standalone.js`,
      bundle: false,
    });
    render(req as unknown as Parameters<typeof render>[0], res, next);
  });
}
