import type { HttpMount } from '@bo/runtime';
import { createSettingsRouter } from './settings-router.js';

/** The environment's settings pages in a browser (the API section: tokens), at /settings. */
export const settingsMount: HttpMount = {
  name: 'settings',
  mount(app, ctx) {
    app.use('/settings', createSettingsRouter(ctx));
  },
};
