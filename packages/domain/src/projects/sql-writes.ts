export { dateText, insertRows, optionalDateText } from '../shared/sql-writes.js';
