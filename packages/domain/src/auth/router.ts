import { publicProcedure, router } from '../trpc.js';
import { authenticate, authenticateInput } from './authenticate.js';

export const authRouter = router({
  authenticate: publicProcedure.input(authenticateInput).query(({ ctx, input }) => authenticate(ctx, input)),
});
