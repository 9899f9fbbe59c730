import type { AnyResource } from '../shared/resources/definition.js';
import { resourceRouter } from '../shared/resources/router.js';
import { router } from '../trpc.js';
import { customFieldGroupResource } from './custom-field-group.resource.js';
import { customFieldOptionResource } from './custom-field-option.resource.js';
import { customFieldModelResource, customFieldTypeResource } from './custom-field-reference.resource.js';

export const customFieldResources: AnyResource[] = [
  customFieldGroupResource,
  customFieldOptionResource,
  customFieldModelResource,
  customFieldTypeResource,
];

export const customfieldsRouter = router({
  group: resourceRouter(customFieldGroupResource),
  option: resourceRouter(customFieldOptionResource),
  model: resourceRouter(customFieldModelResource),
  type: resourceRouter(customFieldTypeResource),
});
