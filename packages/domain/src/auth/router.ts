import { z } from 'zod';
import { moduleProcedure, publicProcedure, router, systemProcedure, userProcedure } from '../trpc.js';
import { authenticate, authenticateInput } from './authenticate.js';
import {
  createEnvironmentToken,
  createSettingsTokenInput,
  deactivateEnvironmentToken,
  listEnvironmentTokens,
  listEnvironmentUsers,
} from './settings-tokens.js';
import {
  consumeLoginLink,
  createLoginLink,
  login,
  loginInput,
  logoutEverywhere,
  resolveSession,
  setPassword,
} from './web-session.js';

export const authRouter = router({
  authenticate: publicProcedure.input(authenticateInput).query(({ ctx, input }) => authenticate(ctx, input)),
  // browser sessions (settings pages, download_url): the HTTP layer holds the cookie, the domain the rules
  session: router({
    login: publicProcedure.input(loginInput).mutation(({ ctx, input }) => login(ctx, input)),
    consumeLink: publicProcedure
      .input(z.object({ environment: z.string(), secret: z.string().max(128) }))
      .mutation(({ ctx, input }) => consumeLoginLink(ctx, input)),
    resolve: publicProcedure
      .input(z.object({ environment: z.string(), secret: z.string().nullable() }))
      .query(({ ctx, input }) => resolveSession(ctx, input)),
    /** ends every session of the signed-in user */
    logout: userProcedure.mutation(({ ctx }) => logoutEverywhere(ctx)),
  }),
  // admin CLI
  password: router({
    set: systemProcedure
      .input(z.object({ environment: z.string(), email: z.string(), password: z.string() }))
      .mutation(({ ctx, input }) => setPassword(ctx, input)),
  }),
  loginLink: router({
    create: systemProcedure
      .input(z.object({ environment: z.string(), email: z.string() }))
      .mutation(({ ctx, input }) => createLoginLink(ctx, input)),
  }),
  // the API section of the settings, for a user with the settings right
  tokens: router({
    list: moduleProcedure('settings', 'read').query(({ ctx }) => listEnvironmentTokens(ctx)),
    users: moduleProcedure('settings', 'read').query(({ ctx }) => listEnvironmentUsers(ctx)),
    create: moduleProcedure('settings', 'write')
      .input(createSettingsTokenInput)
      .mutation(({ ctx, input }) => createEnvironmentToken(ctx, input)),
    delete: moduleProcedure('settings', 'write')
      .input(z.object({ id: z.string().min(1) }))
      .mutation(({ ctx, input }) => deactivateEnvironmentToken(ctx, input.id)),
  }),
});
