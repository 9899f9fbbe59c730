import { router, systemProcedure } from '../trpc.js';
import { z } from 'zod';
import { createdEnvironmentSchema, createEnvironment, createEnvironmentInput } from './create-environment.js';
import { createdTokenSchema, createToken, createTokenInput } from './create-token.js';
import { createdUserSchema, createUser, createUserInput } from './create-user.js';
import { deletedTokenSchema, deleteToken, deleteTokenInput } from './delete-token.js';
import { adminTokenSchema, listTokens, listTokensInput } from './list-tokens.js';
import {
  maintenanceEndedSchema,
  maintenanceList,
  maintenanceOff,
  maintenanceOffInput,
  maintenanceOn,
  maintenanceOnInput,
  maintenanceWindowSchema,
} from '../maintenance/maintenance.js';

/** Internal administration, for in-process callers only (the admin CLI, the demo seed, tests). */
export const adminRouter = router({
  environment: router({
    create: systemProcedure
      .input(createEnvironmentInput)
      .output(createdEnvironmentSchema)
      .mutation(({ ctx, input }) => createEnvironment(ctx, input)),
  }),
  user: router({
    create: systemProcedure
      .input(createUserInput)
      .output(createdUserSchema)
      .mutation(({ ctx, input }) => createUser(ctx, input)),
  }),
  token: router({
    create: systemProcedure
      .input(createTokenInput)
      .output(createdTokenSchema)
      .mutation(({ ctx, input }) => createToken(ctx, input)),
    list: systemProcedure
      .input(listTokensInput)
      .output(z.array(adminTokenSchema))
      .query(({ ctx, input }) => listTokens(ctx, input)),
    delete: systemProcedure
      .input(deleteTokenInput)
      .output(deletedTokenSchema)
      .mutation(({ ctx, input }) => deleteToken(ctx, input)),
  }),
  maintenance: router({
    on: systemProcedure
      .input(maintenanceOnInput)
      .output(maintenanceWindowSchema)
      .mutation(({ ctx, input }) => maintenanceOn(ctx, input)),
    off: systemProcedure
      .input(maintenanceOffInput)
      .output(maintenanceEndedSchema)
      .mutation(({ ctx, input }) => maintenanceOff(ctx, input)),
    list: systemProcedure.output(z.array(maintenanceWindowSchema)).query(({ ctx }) => maintenanceList(ctx)),
  }),
});
