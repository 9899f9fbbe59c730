import { compareInput, compareResult, mergeInput, mergeResult } from '@bo/domain/crm/merge/merge-relation.schema';
import { v2Names } from '../v2-names.js';
import { v2Operation } from '../v2-operation.js';

const names = v2Names();

/** Merging relations (reference: PostMerger → ResultMergerMerge, PostMergerCompare → ResultPostMergerCompare). */
export const mergeOperations = [
  v2Operation({
    method: 'POST',
    path: 'crm/mergeorganization',
    summary: 'Merges the organization source_id into target_id: every reference moves to the target, the source is gone',
    call: (c) => c.crm.merge.organization.merge,
    names,
    input: mergeInput,
    output: mergeResult,
  }),
  v2Operation({
    method: 'POST',
    path: 'crm/mergeperson',
    summary: 'Merges the person source_id into target_id: every reference moves to the target, the source is gone',
    call: (c) => c.crm.merge.person.merge,
    names,
    input: mergeInput,
    output: mergeResult,
  }),
  v2Operation({
    method: 'POST',
    path: 'merger/compareorganization',
    summary:
      'What merging the organization source_id into target_id would do: the fields that differ and the references that move',
    call: (c) => c.crm.merge.organization.compare,
    names,
    input: compareInput,
    output: compareResult,
  }),
  v2Operation({
    method: 'POST',
    path: 'merger/compareperson',
    summary: 'What merging the person source_id into target_id would do: the fields that differ and the references that move',
    call: (c) => c.crm.merge.person.compare,
    names,
    input: compareInput,
    output: compareResult,
  }),
];
