import { type HttpMount, UNMATCHED_ROUTE } from '@bo/runtime';
import { createSettingsRouter } from './settings-router.js';

/** The environment's settings pages in a browser (the API section: tokens), at /settings. */
export const settingsMount: HttpMount = {
  name: 'settings',
  mount(app, ctx) {
    app.use('/settings', createSettingsRouter(ctx));
  },
  /** the Express route the page matched (a template), never the raw path */
  routeOf(req, path) {
    if (path !== '/settings' && !path.startsWith('/settings/')) return undefined;
    const route = (req.route as { path?: unknown } | undefined)?.path;
    return typeof route === 'string' ? `/settings${route === '/' ? '' : route}` : UNMATCHED_ROUTE;
  },
};
