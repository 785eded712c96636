import { defineSchema } from '../../src/index';

/**
 * Invoices with a field of every kind, for the evaluator's tests: their own schema, so
 * that they do not change with the catalog's field names.
 */
export const invoices = defineSchema({
  fields: {
    totalAmount: 'number',
    docNumber: 'string',
    currency: 'string',
    issueDate: 'date',
    customerRef: { type: 'ref' },
    lines: { type: 'array', of: { description: 'string', amount: 'number' } },
  },
  params: ['limit', 'offset'],
});
