import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Envelope, list, post, referenceId } from './support/crm.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { databaseFingerprint } from './support/snapshot.js';
import { documentValidator, expectBusinessRule, expectProblem } from './support/v3.js';

/**
 * Workflows (contract 2026-03): read-only defaults seeded per environment; a workflow
 * started from a default on one entity, its tasks with assignee, due date and status;
 * the rules: sequential tasks in order, a finished workflow is read-only, deleting the
 * entity deletes its workflows.
 */
let t: TestService;
let api: ApiClient;
let other: ApiClient;

type Task = { id: string; name: string; status: string; due_date: string | null; position: number };
type WorkflowRead = {
  id: string;
  name: string;
  status: string;
  completed_at: string | null;
  linked_to: Record<string, string | null>;
  organization: { id: string; name: string } | null;
  tasks: Task[];
};

beforeAll(async () => {
  t = await startTestService();
  api = await t.environment('flow');
  other = await t.environment('flow-other');
});
afterAll(() => t?.stop());

const defaultId = (env: string, name: string) => referenceId(t, env, 'default_workflow', `r.name = '${name}'`);

async function read(id: string): Promise<WorkflowRead> {
  const res = await api.v2('GET', `/workflows/workflow/${id}`);
  expect(res.status, res.text).toBe(200);
  return (res.body as Envelope<WorkflowRead>).data;
}

async function unchanged(run: () => Promise<void>) {
  const strip = async () => {
    const { api_token: _lastUse, ...rest } = await databaseFingerprint(t.db);
    return rest;
  };
  const before = await strip();
  await run();
  expect(await strip()).toEqual(before);
}

describe('default workflows', () => {
  it('are seeded per environment: groups, default workflows with their actions and tasks', async () => {
    const defaults = await list<{
      name: string;
      applies_to: string;
      group: { name: string };
      tasks: unknown[];
      actions: unknown[];
    }>(api, '/workflows/defaultworkflow');
    expect(defaults.map((d) => d.name).sort()).toEqual([
      'New contact',
      'New customer onboarding',
      'Project kick-off',
      'Quote follow-up',
    ]);
    const onboarding = defaults.find((d) => d.name === 'New customer onboarding');
    expect(onboarding).toMatchObject({ applies_to: 'organization', group: { name: 'Relations' } });
    expect(onboarding?.tasks).toHaveLength(3);
    expect(onboarding?.actions).toHaveLength(1);
    expect(await list(api, '/workflows/defaultworkflowgroup')).toHaveLength(3);
    expect((await list(api, '/workflows/defaulttask')).length).toBe(9);
    expect((await list(api, '/workflows/defaultaction')).length).toBe(2);
    const one = await api.v2(
      'GET',
      `/workflows/defaulttask/${(await list<{ id: string }>(api, '/workflows/defaulttask'))[0]?.id}`,
    );
    expect(one.status).toBe(200);
  });

  it('the defaults are read-only: a write answers 405 saying so, and changes nothing', async () => {
    const id = await defaultId('flow', 'Project kick-off');
    for (const path of ['defaultworkflow', 'defaultworkflowgroup', 'defaultaction', 'defaulttask']) {
      await unchanged(async () => {
        for (const [method, url] of [
          ['POST', `/workflows/${path}`],
          ['PUT', `/workflows/${path}/${id}`],
          ['DELETE', `/workflows/${path}/${id}`],
        ] as const) {
          const res = await api.v2(method, url, method === 'DELETE' ? undefined : { name: 'Changed' });
          expect(res.status, `${method} ${url}`).toBe(405);
          expect((res.body as Envelope).errors?.[0]).toContain('read-only');
        }
      });
    }
  });
});

describe('workflows', () => {
  it('starts from a default on an organization: its tasks, due from the start date, linked_to as documents have it', async () => {
    const organization = await post(api, '/crm/organization', { name: 'Flow BV' });
    const id = await post(api, '/workflows/workflow', {
      default_workflow_id: await defaultId('flow', 'New customer onboarding'),
      linked_to: { organization_id: organization },
      start_date: '2026-01-30',
    });
    const wf = await read(id);
    expect(wf).toMatchObject({
      name: 'New customer onboarding',
      status: 'open',
      organization: { id: organization, name: 'Flow BV' },
      linked_to: { organization_id: organization, person_id: null, project_id: null, sales_id: null },
    });
    expect(wf.tasks.map((x) => [x.name, x.due_date, x.status])).toEqual([
      ['Check the company details', '2026-01-31', 'open'],
      ['Send the welcome pack', '2026-02-02', 'open'],
      ['Plan the kick-off meeting', '2026-02-06', 'open'],
    ]);
    expect(await list(api, `/workflows/workflow?q[organization.id]=${organization}&q[status]=open`)).toHaveLength(1);
    expect(await list(api, `/workflows/workflow?q[tasks.name]=Send*`)).toHaveLength(1);
  });

  it('tasks cannot be completed out of order when the default says they are sequential; the last one completes the workflow', async () => {
    const organization = await post(api, '/crm/organization', { name: 'Sequential BV' });
    const id = await post(api, '/workflows/workflow', {
      default_workflow_id: await defaultId('flow', 'New customer onboarding'),
      linked_to: { organization_id: organization },
    });
    const [first, second, third] = (await read(id)).tasks;
    await unchanged(async () => {
      const res = await api.v2('PUT', `/workflows/workflow/${id}`, { tasks: [{ id: second?.id, status: 'completed' }] });
      expect(res.status).toBe(400);
      expect((res.body as Envelope).errors?.[0]).toContain('sequential');
    });
    // several at once are taken in the tasks' order
    const two = await api.v2('PUT', `/workflows/workflow/${id}`, {
      tasks: [
        { id: second?.id, status: 'completed' },
        { id: first?.id, status: 'completed' },
      ],
    });
    expect(two.status, two.text).toBe(200);
    expect((await read(id)).status).toBe('open');
    await api.v2('PUT', `/workflows/workflow/${id}`, { tasks: [{ id: third?.id, status: 'completed' }] });
    const done = await read(id);
    expect(done.status).toBe('completed');
    expect(done.completed_at).not.toBeNull();
    expect(done.tasks.every((x) => x.status === 'completed')).toBe(true);
  });

  it('reopening an earlier task of a sequential workflow while a later one stays completed is refused and changes nothing; reopened with the later ones, it is taken', async () => {
    const organization = await post(api, '/crm/organization', { name: 'Reopen BV' });
    const id = await post(api, '/workflows/workflow', {
      default_workflow_id: await defaultId('flow', 'New customer onboarding'),
      linked_to: { organization_id: organization },
    });
    const [first, second] = (await read(id)).tasks;
    const both = await api.v2('PUT', `/workflows/workflow/${id}`, {
      tasks: [
        { id: first?.id, status: 'completed' },
        { id: second?.id, status: 'completed' },
      ],
    });
    expect(both.status, both.text).toBe(200);
    await unchanged(async () => {
      const res = await api.v2('PUT', `/workflows/workflow/${id}`, { tasks: [{ id: first?.id, status: 'open' }] });
      expect(res.status).toBe(400);
      expect((res.body as Envelope).errors?.[0]).toContain('sequential');
    });
    const wf = await read(id);
    expect(wf.tasks.map((x) => x.status)).toEqual(['completed', 'completed', 'open']);
    const reopened = await api.v2('PUT', `/workflows/workflow/${id}`, {
      tasks: [
        { id: first?.id, status: 'open' },
        { id: second?.id, status: 'open' },
      ],
    });
    expect(reopened.status, reopened.text).toBe(200);
    expect((await read(id)).tasks.map((x) => x.status)).toEqual(['open', 'open', 'open']);
  });

  it('a task of a non-sequential workflow may be completed in any order', async () => {
    const person = await post(api, '/crm/person', { family_name: 'Flow' });
    const id = await post(api, '/workflows/workflow', {
      default_workflow_id: await defaultId('flow', 'New contact'),
      linked_to: { person_id: person },
    });
    const [only] = (await read(id)).tasks;
    const res = await api.v2('PUT', `/workflows/workflow/${id}`, { tasks: [{ id: only?.id, status: 'completed' }] });
    expect(res.status).toBe(200);
    expect((await read(id)).status).toBe('completed');
  });

  it('a finished workflow is read-only', async () => {
    const person = await post(api, '/crm/person', { family_name: 'Finished' });
    const id = await post(api, '/workflows/workflow', {
      default_workflow_id: await defaultId('flow', 'New contact'),
      linked_to: { person_id: person },
    });
    const [only] = (await read(id)).tasks;
    await api.v2('PUT', `/workflows/workflow/${id}`, { tasks: [{ id: only?.id, status: 'completed' }] });
    await unchanged(async () => {
      for (const body of [{ name: 'Renamed' }, { tasks: [{ id: only?.id, status: 'open' }] }]) {
        const res = await api.v2('PUT', `/workflows/workflow/${id}`, body);
        expect(res.status).toBe(400);
        expect((res.body as Envelope).errors?.[0]).toContain('completed');
      }
    });
  });

  it('deleting the entity deletes its workflows', async () => {
    const organization = await post(api, '/crm/organization', { name: 'Gone BV' });
    const id = await post(api, '/workflows/workflow', {
      default_workflow_id: await defaultId('flow', 'New customer onboarding'),
      linked_to: { organization_id: organization },
    });
    expect((await api.v2('DELETE', `/crm/organization/${organization}`)).status).toBe(200);
    expect((await api.v2('GET', `/workflows/workflow/${id}`)).status).toBe(404);
    const tasks = await t.db.query('SELECT id FROM workflow_task WHERE workflow_id = $1', [id]);
    expect(tasks).toEqual([]);
  });

  it('every change records its event: workflow.created, workflow.updated, workflow.deleted', async () => {
    const organization = await post(api, '/crm/organization', { name: 'Evented BV' });
    const id = await post(api, '/workflows/workflow', {
      default_workflow_id: await defaultId('flow', 'New customer onboarding'),
      linked_to: { organization_id: organization },
    });
    await api.v2('PUT', `/workflows/workflow/${id}`, { name: 'Renamed onboarding' });
    await api.v2('DELETE', `/workflows/workflow/${id}`);
    const events = await t.db.query<{ type: string }>('SELECT type FROM event WHERE entity_id = $1 ORDER BY id', [id]);
    expect(events.map((e) => e.type)).toEqual(['workflow.created', 'workflow.updated', 'workflow.deleted']);
  });
});

describe('workflows: bad input answers 400 and changes nothing', () => {
  const cases: [string, () => Promise<Record<string, unknown>>][] = [
    [
      'a workflow on an entity of another environment',
      async () => ({
        default_workflow_id: await defaultId('flow', 'New customer onboarding'),
        linked_to: { organization_id: await post(other, '/crm/organization', { name: 'Foreign BV' }) },
      }),
    ],
    [
      'a default workflow of another environment',
      async () => ({
        default_workflow_id: await defaultId('flow-other', 'New customer onboarding'),
        linked_to: { organization_id: await post(api, '/crm/organization', { name: 'Mine BV' }) },
      }),
    ],
    [
      'a default that runs on another kind of entity',
      async () => ({
        default_workflow_id: await defaultId('flow', 'Project kick-off'),
        linked_to: { organization_id: await post(api, '/crm/organization', { name: 'Kind BV' }) },
      }),
    ],
    [
      'two entities at once',
      async () => ({
        default_workflow_id: await defaultId('flow', 'New customer onboarding'),
        linked_to: { organization_id: await post(api, '/crm/organization', { name: 'Two BV' }), person_id: 'person:x' },
      }),
    ],
    ['no entity', async () => ({ default_workflow_id: await defaultId('flow', 'New contact'), linked_to: {} })],
    [
      'a made-up assignee',
      async () => ({
        default_workflow_id: await defaultId('flow', 'New contact'),
        linked_to: { person_id: await post(api, '/crm/person', { family_name: 'Assigned' }) },
        assignee_id: 'employee:made-up',
      }),
    ],
    [
      'a start date that is not a date',
      async () => ({
        default_workflow_id: await defaultId('flow', 'New contact'),
        linked_to: { person_id: await post(api, '/crm/person', { family_name: 'Dated' }) },
        start_date: '2026-02-30',
      }),
    ],
  ];
  for (const [name, body] of cases) {
    it(name, async () => {
      const b = await body();
      await unchanged(async () => {
        const res = await api.v2('POST', '/workflows/workflow', b);
        expect(res.status, res.text).toBe(400);
        expect((res.body as Envelope).errors?.length).toBeGreaterThan(0);
      });
    });
  }
});

describe('v3: workflow.list, workflow.get, workflow.start, workflow.task.complete', () => {
  it('starts a workflow, completes its tasks in order, and lists it, in the published shapes; every change is an event', async () => {
    const matches = await documentValidator(api);
    const organization = await post(api, '/crm/organization', { name: 'Through v3 BV' });
    const started = await api.v3('POST', '/workflow.start', {
      defaultWorkflowId: await defaultId('flow', 'New customer onboarding'),
      linkedTo: { organizationId: organization },
    });
    expect(started.status, started.text).toBe(201);
    matches('Workflows.Workflow', started.body);
    const wf = started.body as { id: string; status: string; sequential: boolean; tasks: { id: string; status: string }[] };
    expect(wf).toMatchObject({ status: 'open', sequential: true, linkedTo: { type: 'organization', id: organization } });
    const [first, second, third] = wf.tasks;

    // sequential: the second before the first is a business rule, and changes nothing
    await unchanged(async () => {
      expectBusinessRule(
        await api.v3('POST', `/workflow.task.complete/${encodeURIComponent(second?.id as string)}`, {}),
        'sequential',
      );
    });
    for (const task of [first, second]) {
      const res = await api.v3('POST', `/workflow.task.complete/${encodeURIComponent(task?.id as string)}`, {});
      expect(res.status, res.text).toBe(200);
      matches('Workflows.Workflow', res.body);
    }
    const last = await api.v3('POST', `/workflow.task.complete/${encodeURIComponent(third?.id as string)}`, {});
    expect(last.body).toMatchObject({ status: 'completed', completedAt: expect.any(String) });
    // finished: read-only
    await unchanged(async () => {
      expectBusinessRule(
        await api.v3('POST', `/workflow.task.complete/${encodeURIComponent(third?.id as string)}`, {}),
        'completed and can no longer be changed',
      );
    });

    const listed = await api.v3('GET', `/workflow.list?organizationId=${encodeURIComponent(organization)}`);
    expect(listed.status, listed.text).toBe(200);
    expect((listed.body as { items: { id: string }[] }).items.map((w) => w.id)).toEqual([wf.id]);
    const open = await api.v3('GET', `/workflow.list?organizationId=${encodeURIComponent(organization)}&status=open`);
    expect((open.body as { items: unknown[] }).items).toEqual([]);
    matches('Workflows.Workflow', (await api.v3('GET', `/workflow.get/${encodeURIComponent(wf.id)}`)).body);

    const events = await t.db.query<{ type: string }>('SELECT type FROM event WHERE entity_id = $1 ORDER BY id', [wf.id]);
    expect(events.map((e) => e.type)).toEqual(['workflow.created', 'workflow.updated', 'workflow.updated', 'workflow.updated']);
  });

  it('bad input: an entity of another environment, no entity, an unknown task: 422 or 404, and nothing changes', async () => {
    const foreign = await post(other, '/crm/organization', { name: 'Foreign v3 BV' });
    await unchanged(async () => {
      const res = await api.v3('POST', '/workflow.start', {
        defaultWorkflowId: await defaultId('flow', 'New customer onboarding'),
        linkedTo: { organizationId: foreign },
      });
      expectProblem(res, 422);
      expectProblem(
        await api.v3('POST', '/workflow.start', { defaultWorkflowId: await defaultId('flow', 'New contact'), linkedTo: {} }),
        422,
      );
      expectProblem(await api.v3('POST', '/workflow.start', { linkedTo: { organizationId: foreign } }), 422);
      expectProblem(await api.v3('POST', '/workflow.task.complete/workflowtask:nope', {}), 404);
    });
  });
});
