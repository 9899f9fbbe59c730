/**
 * The v3 endpoint table: `{entity}.{action}` → what it calls in the domain.
 * Queries are GET and never change data; commands are POST with a JSON body.
 */
export type Endpoint =
  | {
      kind: 'list';
      /** resource name in the domain registry, e.g. crm/organization */
      resource: string;
      /** query parameter → filterable path; `name=` exact, `name[]=` any of several */
      filters: Record<string, string>;
      sort?: { path: string; dir: 'asc' | 'desc' }[];
    }
  | { kind: 'get'; resource: string }
  | {
      kind: 'query';
      /** tRPC procedure path, e.g. projects.projectService.get */
      procedure: string;
      /** whether the endpoint takes /{id} */
      withId: boolean;
    }
  | {
      kind: 'pagedQuery';
      procedure: string;
      filters: string[];
    }
  | {
      kind: 'command';
      procedure: string;
      /** success status: 201 for creating commands, 200 otherwise */
      status: 200 | 201;
      /** the command addresses /{id} (its input gets `id`) */
      withId?: boolean;
    };

export const endpoints: Record<string, Endpoint> = {
  'organization.list': { kind: 'list', resource: 'crm/organization', filters: { name: 'name' } },
  'organization.get': { kind: 'get', resource: 'crm/organization' },
  'webhook.create': { kind: 'command', procedure: 'webhooks.webhook.create', status: 201 },
  'webhook.list': { kind: 'pagedQuery', procedure: 'webhooks.webhook.list', filters: [] },
  'webhook.get': { kind: 'query', procedure: 'webhooks.webhook.get', withId: true },
  'webhook.edit': { kind: 'command', procedure: 'webhooks.webhook.edit', status: 200 },
  'webhook.delete': { kind: 'command', procedure: 'webhooks.webhook.delete', status: 200 },
  'webhook.delivery.list': {
    kind: 'pagedQuery',
    procedure: 'webhooks.webhook.delivery.list',
    filters: ['webhookId', 'status', 'eventId'],
  },
  'webhook.delivery.get': { kind: 'query', procedure: 'webhooks.webhook.delivery.get', withId: true },
  'webhook.delivery.resend': { kind: 'command', procedure: 'webhooks.webhook.delivery.resend', status: 200 },
};
