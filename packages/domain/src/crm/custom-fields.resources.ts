import { customFieldDefinitionResource, modelCustomFieldGroupResource } from '../customfields/index.js';

/** The custom-field definitions and groups of organizations and persons. */
export const organizationCustomFieldResource = customFieldDefinitionResource(
  'organization',
  'crm/organizationcustomfields',
  'crm',
);
export const personCustomFieldResource = customFieldDefinitionResource('person', 'crm/personcustomfields', 'crm');
export const organizationCustomFieldGroupResource = modelCustomFieldGroupResource(
  'organization',
  'crm/organizationcustomfieldgroups',
  'crm',
);
export const personCustomFieldGroupResource = modelCustomFieldGroupResource('person', 'crm/personcustomfieldgroups', 'crm');
