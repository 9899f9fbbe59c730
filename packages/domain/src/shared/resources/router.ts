import { z } from 'zod';
import { moduleProcedure, router, type UserContext } from '../../trpc.js';
import { NotFoundError } from '../errors.js';
import { createResource } from './create-resource.js';
import { deleteResource } from './delete-resource.js';
import type { AnyResource } from './definition.js';
import { getResource } from './get-resource.js';
import { getInputSchema, idInputSchema, listInputSchema } from './list-input.js';
import { listResource } from './list-resource.js';
import { updateResource } from './update-resource.js';

/** The tRPC procedures of one declared resource: list, get, create, update, delete. */
export function resourceRouter(def: AnyResource) {
  const unsupported = (op: string) => () => {
    throw new NotFoundError(`${op} on ${def.name}`);
  };
  const actions = Object.fromEntries(
    (def.actions ?? []).map((a) => {
      const procedure = moduleProcedure(def.module, a.method === 'GET' ? 'read' : 'write').input(
        z.object({ id: z.string().min(1), data: a.schema }),
      );
      const run = ({ ctx, input }: { ctx: UserContext; input: { id: string; data: unknown } }) =>
        a.run(ctx, input.id, input.data);
      return [a.name, a.method === 'GET' ? procedure.query(run) : procedure.mutation(run)];
    }),
  );
  return router({
    ...actions,
    list: moduleProcedure(def.module, 'read')
      .input(listInputSchema)
      .query(({ ctx, input }) => listResource(ctx, def, input)),
    get: moduleProcedure(def.module, 'read')
      .input(getInputSchema)
      .query(({ ctx, input }) => getResource(ctx, def, input)),
    create: moduleProcedure(def.module, 'write')
      .input(def.create ? z.object({ data: def.create.schema }) : z.unknown())
      .mutation(({ ctx, input }) =>
        def.create ? createResource(ctx, def, (input as { data: unknown }).data) : unsupported('create')(),
      ),
    update: moduleProcedure(def.module, 'write')
      .input(z.object({ id: z.string().min(1), data: def.update ? def.update.schema : z.unknown() }))
      .mutation(({ ctx, input }) => (def.update ? updateResource(ctx, def, input.id, input.data) : unsupported('update')())),
    delete: moduleProcedure(def.module, 'write')
      .input(idInputSchema)
      .mutation(({ ctx, input }) => (def.remove !== false ? deleteResource(ctx, def, input.id) : unsupported('delete')())),
  });
}

/** `crm/organization` → the caller path `crm.organization`. */
export function resourcePath(def: AnyResource): string[] {
  return def.name.split('/');
}
