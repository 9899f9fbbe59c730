/** Kept for sales (converted separately), which still embeds employees the earlier way; goes when sales is converted. */
export { employeeSimpleV2 } from './employee.view.js';
