export { dateText, decimalJson, insertRows, optionalDateText } from '../shared/sql-writes.js';
