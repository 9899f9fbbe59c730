export { insertRows } from '../shared/sql-writes.js';
