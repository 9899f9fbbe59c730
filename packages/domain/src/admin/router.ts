import { router, systemProcedure } from '../trpc.js';
import { createEnvironment, createEnvironmentInput } from './create-environment.js';
import { createToken, createTokenInput } from './create-token.js';
import { createUser, createUserInput } from './create-user.js';
import { deleteToken, deleteTokenInput } from './delete-token.js';
import { listTokens, listTokensInput } from './list-tokens.js';
import {
  maintenanceList,
  maintenanceOff,
  maintenanceOffInput,
  maintenanceOn,
  maintenanceOnInput,
} from '../maintenance/maintenance.js';

/** Internal administration, for in-process callers only (the admin CLI, the demo seed, tests). */
export const adminRouter = router({
  environment: router({
    create: systemProcedure.input(createEnvironmentInput).mutation(({ ctx, input }) => createEnvironment(ctx, input)),
  }),
  user: router({
    create: systemProcedure.input(createUserInput).mutation(({ ctx, input }) => createUser(ctx, input)),
  }),
  token: router({
    create: systemProcedure.input(createTokenInput).mutation(({ ctx, input }) => createToken(ctx, input)),
    list: systemProcedure.input(listTokensInput).query(({ ctx, input }) => listTokens(ctx, input)),
    delete: systemProcedure.input(deleteTokenInput).mutation(({ ctx, input }) => deleteToken(ctx, input)),
  }),
  maintenance: router({
    on: systemProcedure.input(maintenanceOnInput).mutation(({ ctx, input }) => maintenanceOn(ctx, input)),
    off: systemProcedure.input(maintenanceOffInput).mutation(({ ctx, input }) => maintenanceOff(ctx, input)),
    list: systemProcedure.query(({ ctx }) => maintenanceList(ctx)),
  }),
});
