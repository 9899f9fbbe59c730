import type { AnyResource } from '../shared/resources/definition.js';
import { resourceRouter } from '../shared/resources/router.js';
import { router } from '../trpc.js';
import { attachmentResource, messageResource, messageTypeResource } from './timeline.resource.js';

export const timelineResources: AnyResource[] = [messageResource, messageTypeResource, attachmentResource];

export const timelineRouter = router({
  message: resourceRouter(messageResource),
  messagetype: resourceRouter(messageTypeResource),
  attachment: resourceRouter(attachmentResource),
});
