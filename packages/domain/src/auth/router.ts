import { z } from 'zod';
import { moduleProcedure, publicProcedure, router, systemProcedure, userProcedure } from '../trpc.js';
import { authenticate, authenticateInput, userPrincipalSchema } from './authenticate.js';
import {
  createdSettingsTokenSchema,
  createEnvironmentToken,
  createSettingsTokenInput,
  deactivatedSettingsTokenSchema,
  deactivateEnvironmentToken,
  environmentUserSchema,
  listEnvironmentTokens,
  listEnvironmentUsers,
  settingsTokenSchema,
} from './settings-tokens.js';
import {
  consumeLoginLink,
  createLoginLink,
  login,
  loggedOutSchema,
  loginInput,
  loginLinkSchema,
  logoutEverywhere,
  openedSessionSchema,
  passwordSetSchema,
  resolveSession,
  setPassword,
  webSessionSchema,
} from './web-session.js';

export const authRouter = router({
  authenticate: publicProcedure
    .input(authenticateInput)
    .output(userPrincipalSchema)
    .query(({ ctx, input }) => authenticate(ctx, input)),
  // browser sessions (settings pages, download_url): the HTTP layer holds the cookie, the domain the rules
  session: router({
    login: publicProcedure
      .input(loginInput)
      .output(openedSessionSchema)
      .mutation(({ ctx, input }) => login(ctx, input)),
    consumeLink: publicProcedure
      .input(z.object({ environment: z.string(), secret: z.string().max(128) }))
      .output(openedSessionSchema)
      .mutation(({ ctx, input }) => consumeLoginLink(ctx, input)),
    resolve: publicProcedure
      .input(z.object({ environment: z.string(), secret: z.string().nullable() }))
      .output(webSessionSchema.nullable())
      .query(({ ctx, input }) => resolveSession(ctx, input)),
    /** ends every session of the signed-in user */
    logout: userProcedure.output(loggedOutSchema).mutation(({ ctx }) => logoutEverywhere(ctx)),
  }),
  // admin CLI
  password: router({
    set: systemProcedure
      .input(z.object({ environment: z.string(), email: z.string(), password: z.string() }))
      .output(passwordSetSchema)
      .mutation(({ ctx, input }) => setPassword(ctx, input)),
  }),
  loginLink: router({
    create: systemProcedure
      .input(z.object({ environment: z.string(), email: z.string() }))
      .output(loginLinkSchema)
      .mutation(({ ctx, input }) => createLoginLink(ctx, input)),
  }),
  // the API section of the settings, for a user with the settings right
  tokens: router({
    list: moduleProcedure('settings', 'read')
      .output(z.array(settingsTokenSchema))
      .query(({ ctx }) => listEnvironmentTokens(ctx)),
    users: moduleProcedure('settings', 'read')
      .output(z.array(environmentUserSchema))
      .query(({ ctx }) => listEnvironmentUsers(ctx)),
    create: moduleProcedure('settings', 'write')
      .input(createSettingsTokenInput)
      .output(createdSettingsTokenSchema)
      .mutation(({ ctx, input }) => createEnvironmentToken(ctx, input)),
    delete: moduleProcedure('settings', 'write')
      .input(z.object({ id: z.string().min(1) }))
      .output(deactivatedSettingsTokenSchema)
      .mutation(({ ctx, input }) => deactivateEnvironmentToken(ctx, input.id)),
  }),
});
