import { BusinessRuleError } from '../../shared/errors.js';

/** A refused approval step, with its stable code in the text (listed in the README). */
export function approvalError(code: string, message: string): BusinessRuleError {
  return new BusinessRuleError(`${message} [${code}]`);
}
