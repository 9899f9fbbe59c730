import { customFieldDefinitionResource, modelCustomFieldGroupResource } from '../customfields/index.js';
import type { AnyResource } from '../shared/resources/definition.js';
import { resourceRouter } from '../shared/resources/router.js';
import { router } from '../trpc.js';
import { saleResource } from './sale.resource.js';

/** The custom-field definitions and groups of sales (reference: sales/salescustomfields…). */
export const saleCustomFieldResource = customFieldDefinitionResource('sale', 'sales/salescustomfields', 'sales');
export const saleCustomFieldGroupResource = modelCustomFieldGroupResource('sale', 'sales/salescustomfieldgroups', 'sales');

export const salesResources: AnyResource[] = [saleResource, saleCustomFieldResource, saleCustomFieldGroupResource];

export const salesRouter = router({
  sales: resourceRouter(saleResource),
  salescustomfields: resourceRouter(saleCustomFieldResource),
  salescustomfieldgroups: resourceRouter(saleCustomFieldGroupResource),
});
