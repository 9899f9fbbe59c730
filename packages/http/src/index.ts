export { mountApiDocs } from './api-docs.js';
