import type { CustomField, CustomFieldGroup } from '@bo/domain/customfields/custom-field.entity';
import { customFieldNames, definitionV2, groupV2 } from '../customfields/customfields.js';
import { v2Resource } from '../v2-resource.js';

/**
 * hrm/employeecustomfields and hrm/employeecustomfieldgroups: the custom-field definitions
 * (and their groups, read-only) of employees, under the hrm right. Definitions only: the
 * contract does not support custom-field filters on hrm/employee, which stay a 400.
 */
export const employeeCustomFieldsV2 = v2Resource<CustomField>({
  path: 'hrm/employeecustomfields',
  procedures: (c) => c.hrm.customFields,
  names: customFieldNames,
  read: definitionV2,
});

export const employeeCustomFieldGroupsV2 = v2Resource<CustomFieldGroup>({
  path: 'hrm/employeecustomfieldgroups',
  procedures: (c) => c.hrm.customFieldGroups,
  names: customFieldNames,
  methods: { create: false, update: false, delete: false },
  read: groupV2,
});
