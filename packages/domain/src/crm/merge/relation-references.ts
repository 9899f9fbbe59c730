/**
 * Every column that refers to an organization or a person, by table. Merging moves
 * each of them to the survivor; tests/relations-merge.test.ts compares these lists
 * with the database's own catalog, so a new table that refers to a relation and is
 * not listed here fails that test.
 */
export interface ReferenceColumn {
  table: string;
  column: string;
  /** the entity a row of the table is (its event says it changed), or null for link rows */
  entityType: string | null;
  /** the other columns of a unique key with this column: a row that would duplicate one of the survivor's is dropped (the survivor's wins) */
  uniqueWith?: string[];
}

const customFieldValues: ReferenceColumn = {
  table: 'custom_field_value',
  column: 'entity_id',
  entityType: null,
  uniqueWith: ['custom_field_id'],
};

export const ORGANIZATION_REFERENCES: ReferenceColumn[] = [
  { table: 'organization_address', column: 'organization_id', entityType: null, uniqueWith: ['kind'] },
  { table: 'organization_interest', column: 'organization_id', entityType: null, uniqueWith: ['interest_id'] },
  { table: 'contact_person', column: 'organization_id', entityType: 'contactperson', uniqueWith: ['person_id'] },
  { table: 'document', column: 'linked_organization_id', entityType: 'document' },
  { table: 'external_document', column: 'linked_organization_id', entityType: 'externaldocument' },
  { table: 'timeline_message', column: 'linked_organization_id', entityType: 'message' },
  { table: 'invoice', column: 'organization_id', entityType: 'invoice' },
  { table: 'project', column: 'organization_id', entityType: 'project' },
  { table: 'purchase', column: 'organization_id', entityType: 'purchase' },
  { table: 'sale', column: 'organization_id', entityType: 'sale' },
  { table: 'workflow', column: 'organization_id', entityType: 'workflow' },
  { table: 'my_organization_profile', column: 'organization_id', entityType: 'myorganizationprofile' },
  customFieldValues,
];

export const PERSON_REFERENCES: ReferenceColumn[] = [
  { table: 'person_address', column: 'person_id', entityType: null, uniqueWith: [] },
  { table: 'person_interest', column: 'person_id', entityType: null, uniqueWith: ['interest_id'] },
  { table: 'person_mailing_list', column: 'person_id', entityType: null, uniqueWith: ['mailing_list_id'] },
  { table: 'contact_person', column: 'person_id', entityType: 'contactperson', uniqueWith: ['organization_id'] },
  { table: 'document', column: 'linked_person_id', entityType: 'document' },
  { table: 'external_document', column: 'linked_person_id', entityType: 'externaldocument' },
  { table: 'timeline_message', column: 'linked_person_id', entityType: 'message' },
  { table: 'invoice', column: 'person_id', entityType: 'invoice' },
  { table: 'project', column: 'person_id', entityType: 'project' },
  { table: 'purchase', column: 'person_id', entityType: 'purchase' },
  { table: 'sale', column: 'person_id', entityType: 'sale' },
  { table: 'workflow', column: 'person_id', entityType: 'workflow' },
  { table: 'employee', column: 'person_id', entityType: 'employee' },
  customFieldValues,
];
