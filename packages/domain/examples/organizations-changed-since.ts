/**
 * An internal tool, typed end to end: a report of the organizations changed since a
 * date, read over the service's /trpc endpoint. Its types come from the router
 * (inferRouterOutputs: what crosses the wire, date-times as ISO 8601 strings); a
 * renamed procedure or field fails to compile here, not at run time.
 */
import { createTRPCClient, httpLink } from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../src/router.js';

type Outputs = inferRouterOutputs<AppRouter>;
export type OrganizationRead = Outputs['crm']['organization']['get'];

export interface ChangedOrganization {
  id: string;
  name: string;
  relationType: string | null;
  changedAt: string;
}

export interface ServiceAccess {
  /** e.g. https://acme.example.com/trpc */
  url: string;
  key: string;
  secret: string;
  /** a fetch that trusts the service's certificate, where it is self-signed */
  fetch?: typeof fetch;
}

export async function organizationsChangedSince(access: ServiceAccess, since: Date): Promise<ChangedOrganization[]> {
  const client = createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: access.url,
        headers: { authorization: `Bearer ${access.key}:${access.secret}` },
        ...(access.fetch ? { fetch: access.fetch } : {}),
      }),
    ],
  });
  const report: ChangedOrganization[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await client.crm.organization.list.query({
      where: { path: 'updatedAt', op: 'ge', value: since.toISOString() },
      orderBy: [{ path: 'updatedAt', dir: 'desc' }],
      offset,
      limit: 100,
    });
    report.push(
      ...page.items.map((o: OrganizationRead) => ({
        id: o.id,
        name: o.name,
        relationType: o.relationType?.label ?? null,
        changedAt: o.updatedAt,
      })),
    );
    if (page.items.length < 100) return report;
  }
}
