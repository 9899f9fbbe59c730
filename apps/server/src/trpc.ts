import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { appRouter, createCaller, environmentFromHost } from '@bo/domain';
import type { HttpMount } from '@bo/runtime';

/** Internal tools: the same procedures over HTTP at /trpc, with the same bearer tokens as v3. */
export const trpcMount: HttpMount = {
  name: 'trpc',
  mount(app, { context, log }) {
    app.use(
      '/trpc',
      createExpressMiddleware({
        router: appRouter,
        createContext: async ({ req }) => {
          const ctx = context(req);
          const environment = environmentFromHost(req.headers.host);
          const m = /^Bearer\s+([^:\s]+):(\S+)$/i.exec(req.headers.authorization ?? '');
          if (!environment || !m) return ctx;
          try {
            const principal = await createCaller(ctx).auth.authenticate({ environment, key: m[1] ?? null, secret: m[2] ?? null });
            return { ...ctx, principal };
          } catch {
            return ctx;
          }
        },
        onError: ({ error, path }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause && 'kind' in error.cause)) {
            log.error({ err: error, path }, 'trpc error');
          }
        },
      }),
    );
  },
};
