import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyProcedure, TRPCError } from '@trpc/server';
import { appRouter, type DomainContext, NotFoundError, systemClock, type UserPrincipal } from '@bo/domain';
import { idInputSchema } from '../packages/domain/src/shared/entity/entity-router.js';
import {
  createCallerFactory,
  directQueryOf,
  moduleProcedure,
  router,
  userProcedure,
  withDirectQueries,
} from '../packages/domain/src/trpc.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * The in-process caller runs a user's query directly (packages/domain/src/trpc.ts, directQueryOf):
 * the same steps as tRPC's middleware engine, in the same order, with the same answers and the
 * same errors. Every rule here compares the direct call with tRPC's own caller on the same context.
 */
let t: TestService;
let api: ApiClient;
let principal: UserPrincipal;
let organizationId: string;

beforeAll(async () => {
  t = await startTestService();
  api = await t.environment('direct');
  principal = (await t.system.auth.authenticate({
    environment: 'direct',
    key: api.token?.key ?? null,
    secret: api.token?.secret ?? null,
  })) as UserPrincipal;
  const created = await api.v2('POST', '/crm/organization', { name: 'Direct BV' });
  expect(created.status).toBe(200);
  organizationId = (created.body as { data: { id: string } }).data.id;
});
afterAll(() => t?.stop());

const context = (p: UserPrincipal | null, extra: Partial<DomainContext> = {}): DomainContext => ({
  prisma: t.service.database.prisma,
  principal: p,
  clock: systemClock,
  ...extra,
});

/** what a call gives: its data, or its error's class, code, message and cause's class */
async function outcome(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return { data: await call() };
  } catch (err) {
    const e = err as TRPCError;
    return {
      error: e.constructor.name,
      code: e.code,
      message: e.message,
      cause: e.cause?.constructor.name ?? null,
    };
  }
}

/** the same call through the direct caller and through tRPC's own */
async function both<R extends Parameters<typeof withDirectQueries>[0]>(
  r: R,
  ctx: DomainContext,
  call: (caller: Record<string, Record<string, (input?: unknown) => Promise<unknown>>>) => Promise<unknown>,
): Promise<{ direct: unknown; trpc: unknown }> {
  const trpcCaller = createCallerFactory(r);
  const direct = withDirectQueries(r, trpcCaller)(ctx as never) as never;
  const viaTrpc = trpcCaller(ctx as never) as never;
  return { direct: await outcome(() => call(direct)), trpc: await outcome(() => call(viaTrpc)) };
}

describe('a user query runs directly in process, as tRPC would run it', () => {
  it('an entity read has a direct form; a mutation and a public query keep tRPC', () => {
    expect(directQueryOf(appRouter.crm.organization.get)).not.toBeNull();
    expect(directQueryOf(appRouter.crm.organization.getAs)).not.toBeNull();
    expect(directQueryOf(appRouter.crm.organization.list)).not.toBeNull();
    expect(directQueryOf(appRouter.crm.organization.listAs)).not.toBeNull();
    expect(directQueryOf(appRouter.crm.organization.create)).toBeNull();
    const open = router({ ping: userProcedure.query(() => 'pong') });
    expect(directQueryOf(open.ping)).not.toBeNull();
    // a middleware of its own: its chain is not the user middleware's alone
    const own = router({ ping: userProcedure.use(({ next }) => next()).query(() => 'pong') });
    expect(directQueryOf(own.ping)).toBeNull();
  });

  it('a read by id and a list page answer the same data directly and through tRPC', async () => {
    const trpcCaller = createCallerFactory(appRouter);
    const direct = withDirectQueries(appRouter, trpcCaller)(context(principal));
    const viaTrpc = trpcCaller(context(principal));
    expect(await direct.crm.organization.get({ id: organizationId })).toEqual(
      await viaTrpc.crm.organization.get({ id: organizationId }),
    );
    const page = { orderBy: [{ path: 'name', dir: 'asc' as const }], limit: 10 };
    const listed = await direct.crm.organization.list(page);
    expect(listed).toEqual(await viaTrpc.crm.organization.list(page));
    expect(listed.items.map((o) => o.id)).toContain(organizationId);
  });

  it('a record that does not exist, a bad input, no principal, a missing right and an unknown key fail the same way', async () => {
    const trpcCaller = createCallerFactory(appRouter);
    const cases: [string, DomainContext, (c: ReturnType<typeof trpcCaller>) => Promise<unknown>][] = [
      ['not found', context(principal), (c) => c.crm.organization.get({ id: 'organization:none' })],
      ['bad input', context(principal), (c) => c.crm.organization.get({ id: '' })],
      ['no principal', context(null), (c) => c.crm.organization.get({ id: organizationId })],
      [
        'no right',
        context({ ...principal, rights: { ...principal.rights, crm: 'none' } as UserPrincipal['rights'] }),
        (c) => c.crm.organization.get({ id: organizationId }),
      ],
      ['unknown key', context(principal), (c) => c.crm.organization.get({ id: organizationId, extra: 1 } as never)],
    ];
    for (const [name, ctx, call] of cases) {
      const direct = await outcome(() => call(withDirectQueries(appRouter, trpcCaller)(ctx)));
      const viaTrpc = await outcome(() => call(trpcCaller(ctx)));
      expect({ name, ...(direct as object) }).toEqual({ name, ...(viaTrpc as object) });
      expect(direct).toHaveProperty('error', 'TRPCError');
    }
  });

  it('a failing output check, a domain error and an unexpected error of the resolver are named the same way', async () => {
    const r = router({
      q: {
        badOutput: moduleProcedure('crm', 'read')
          .output(idInputSchema)
          .query(() => ({ id: 1 }) as never),
        domainError: moduleProcedure('crm', 'read').query(() => {
          throw new NotFoundError('organization');
        }),
        plainError: moduleProcedure('crm', 'read').query(() => {
          throw new Error('a file path and a database message');
        }),
        seesUser: moduleProcedure('crm', 'read').query(({ ctx }) => ({
          environment: ctx.principal.environmentId,
          scoped: ctx.db !== undefined && ctx.sql !== undefined,
        })),
      },
    });
    for (const procedure of ['badOutput', 'domainError', 'plainError', 'seesUser']) {
      expect(directQueryOf((r.q as unknown as Record<string, AnyProcedure>)[procedure] as AnyProcedure)).not.toBeNull();
      const { direct, trpc } = await both(r, context(principal), (c) =>
        (c.q as Record<string, (i?: unknown) => Promise<unknown>>)[procedure]!(),
      );
      expect({ procedure, ...(direct as object) }).toEqual({ procedure, ...(trpc as object) });
    }
    const seen = await both(r, context(principal), (c) => (c.q as Record<string, () => Promise<unknown>>).seesUser!());
    expect(seen.direct).toEqual({ data: { environment: principal.environmentId, scoped: true } });
  });

  it('a path that names no procedure is refused as tRPC refuses it', async () => {
    const trpcCaller = createCallerFactory(appRouter);
    const call = (c: unknown) => (c as { crm: { nothing: { here: () => Promise<unknown> } } }).crm.nothing.here();
    const direct = await outcome(() => call(withDirectQueries(appRouter, trpcCaller)(context(principal))));
    expect(direct).toEqual(await outcome(() => call(trpcCaller(context(principal)))));
    expect(direct).toHaveProperty('code', 'NOT_FOUND');
  });
});
