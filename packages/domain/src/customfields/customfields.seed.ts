import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EnvironmentSeeder } from '../shared/environment-seeders.js';
import { newEntityId } from '../shared/ids.js';

/** The models that carry custom fields; hrm employees have none (the contract refuses their filters). */
export const CUSTOM_FIELD_MODELS = [
  { key: 'organization', label: 'Organization' },
  { key: 'person', label: 'Person' },
  { key: 'project', label: 'Project' },
  { key: 'sale', label: 'Sale' },
  { key: 'hours', label: 'Hours' },
  // hrm (issue 11): definitions only; filters on hrm/employee custom fields stay refused
  { key: 'employee', label: 'Employee' },
] as const;

const TYPES = [
  { type: 'text', name: 'Text', valueType: 'Text', renderType: 'text' },
  { type: 'textarea', name: 'Text area', valueType: 'Text', renderType: 'textarea' },
  { type: 'integer', name: 'Whole number', valueType: 'Integer', renderType: 'number' },
  { type: 'decimal', name: 'Number', valueType: 'Decimal', renderType: 'number' },
  { type: 'date', name: 'Date', valueType: 'Date', renderType: 'date' },
  { type: 'time', name: 'Time', valueType: 'Time', renderType: 'time' },
  { type: 'datetime', name: 'Date and time', valueType: 'DateTime', renderType: 'datetime' },
  { type: 'dropdown', name: 'Dropdown', valueType: 'Text', renderType: 'select', hasOptions: true },
  { type: 'radio', name: 'Radio buttons', valueType: 'Text', renderType: 'radio', hasOptions: true },
];

export const seedCustomFieldReferenceData: EnvironmentSeeder = async (db) => {
  await db.customFieldModel.createMany({
    data: CUSTOM_FIELD_MODELS.map((m) => ({ ...m, id: newEntityId('customfieldmodel'), environmentId: SCOPED_ENVIRONMENT })),
  });
  await db.customFieldType.createMany({
    data: TYPES.map((t, position) => ({
      ...t,
      position,
      id: newEntityId('customfieldtype'),
      environmentId: SCOPED_ENVIRONMENT,
    })),
  });
};
