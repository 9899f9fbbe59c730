import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EnvironmentSeeder } from '../shared/environment-seeders.js';
import { newEntityId } from '../shared/ids.js';

/** The default workflows a new environment starts with (the migration gives existing ones the same). */
export const DEFAULT_WORKFLOWS = [
  {
    group: 'Relations',
    name: 'New customer onboarding',
    description: 'From signed agreement to a first meeting',
    appliesTo: 'organization',
    sequential: true,
    actions: ['Create the customer folder'],
    tasks: [
      { name: 'Check the company details', dueInDays: 1 },
      { name: 'Send the welcome pack', dueInDays: 3 },
      { name: 'Plan the kick-off meeting', dueInDays: 7 },
    ],
  },
  {
    group: 'Projects',
    name: 'Project kick-off',
    description: 'Everything a project needs before the first hour is booked',
    appliesTo: 'project',
    sequential: false,
    actions: ['Open the project channel'],
    tasks: [
      { name: 'Assign the project team', dueInDays: 2 },
      { name: 'Agree the planning with the customer', dueInDays: 5 },
      { name: 'Set up the hour registration', dueInDays: 5 },
    ],
  },
  {
    group: 'Sales',
    name: 'Quote follow-up',
    description: 'After a quote has been sent',
    appliesTo: 'sale',
    sequential: true,
    actions: [],
    tasks: [
      { name: 'Call the contact', dueInDays: 3 },
      { name: 'Send the revised quote', dueInDays: 10 },
    ],
  },
  {
    group: 'Relations',
    name: 'New contact',
    description: 'A person added to the CRM',
    appliesTo: 'person',
    sequential: false,
    actions: [],
    tasks: [{ name: 'Add the contact to the mailing lists', dueInDays: 2 }],
  },
] as const;

export const seedDefaultWorkflows: EnvironmentSeeder = async (db) => {
  const groups = new Map<string, string>();
  for (const [position, name] of [...new Set(DEFAULT_WORKFLOWS.map((w) => w.group))].entries()) {
    const id = newEntityId('defaultworkflowgroup');
    groups.set(name, id);
    await db.defaultWorkflowGroup.create({ data: { id, environmentId: SCOPED_ENVIRONMENT, name, position } });
  }
  for (const w of DEFAULT_WORKFLOWS) {
    await db.defaultWorkflow.create({
      data: {
        id: newEntityId('defaultworkflow'),
        environmentId: SCOPED_ENVIRONMENT,
        groupId: groups.get(w.group) ?? '',
        name: w.name,
        description: w.description,
        appliesTo: w.appliesTo,
        sequential: w.sequential,
        actions: {
          create: w.actions.map((name, position) => ({
            id: newEntityId('defaultaction'),
            environmentId: SCOPED_ENVIRONMENT,
            name,
            position,
          })),
        },
        tasks: {
          create: w.tasks.map((t, position) => ({
            id: newEntityId('defaulttask'),
            environmentId: SCOPED_ENVIRONMENT,
            name: t.name,
            dueInDays: t.dueInDays,
            position,
          })),
        },
      },
    });
  }
};
