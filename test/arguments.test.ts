import { describe, expect, it } from 'vitest';
import {
  catalog,
  check,
  compile,
  defineSchema,
  detectCaseFolding,
  format,
  formatDiagnostic,
  formatDiagnostics,
  isComparison,
  isPattern,
  openApiParameters,
  parse,
  schemaFromJsonSchema,
  sortItems,
  splitRequestUrl,
  toProblemDetails,
  toSql,
  validate,
  vendors,
  withStandard,
  type Diagnostic,
} from '../src/index';

// Issue 14, item 12: a wrong argument to a public function is a programmer error. It
// throws a TypeError that names the function and says what was expected, never a
// TypeError from deep inside ("Cannot read properties of undefined").

const spec = { fields: { vendorName: 'string' } } as const;
const ast = (() => {
  const result = parse('vendorName=acme');
  if (!result.ok) throw new Error('parses');
  return result.value;
})();
const filter = (() => {
  const result = check('vendorName=acme', vendors);
  if (!result.ok) throw new Error('checks');
  return result.value;
})();
const sorted = (() => {
  const result = check('orderBy=-balance', vendors);
  if (!result.ok) throw new Error('checks');
  return result.value;
})();
const jsonSchema = { type: 'object', properties: { postedDate: { type: 'string', format: 'date' } } };
const d: Diagnostic = { code: 'EMPTY_VALUE', message: 'm', param: 'k', in: 'value', text: 'abc', span: { start: 0, end: 1 } };

const cases: [string, () => unknown, RegExp][] = [
  // check
  ['check: a schema spec', () => check('a=1', spec as never), /^check: the schema must be a schema made by defineSchema\(\), not an object\. This is a schema spec: pass defineSchema\(spec\)/],
  ['check: no schema', () => check('a=1', undefined as never), /^check: the schema must be a schema made by defineSchema\(\), not undefined\.$/],
  ['check: a resource name', () => check('a=1', 'vendors' as never), /not the string "vendors"\.$/],
  ['check: options that are not an object', () => check('a=1', vendors, 5 as never), /^check: the options must be an object \(limits, params, caseInsensitive\), not the number 5\.$/],
  ['check: an unknown option', () => check('a=1', vendors, { codegen: true } as never), /^check: unknown option "codegen"; the options are limits, params, caseInsensitive\.$/],
  ['check: params as a string', () => check('a=1', vendors, { params: 'limit' as never }), /^check: "params" must be an array or Set of parameter names, not the string "limit"\.$/],
  ['check: a param that is not a name', () => check('a=1', vendors, { params: [5 as never] }), /^check: each of "params" must be a parameter name, not the number 5\.$/],
  ['check: limits that are not an object', () => check('a=1', vendors, { limits: 100 as never }), /^check: "limits" must be an object of limits \(maxQueryLength, .*\), not the number 100\.$/],
  ['check: a negative limit', () => check('a=1', vendors, { limits: { maxClauses: -1 } }), /^check: the limit "maxClauses" must be a non-negative integer or Infinity, not the number -1\.$/],
  ['check: a misspelt limit', () => check('a=1', vendors, { limits: { maxClause: 1 } as never }), /^check: unknown limit "maxClause"; the limits are /],
  // parse
  ['parse: an unknown option', () => parse('a=1', { limit: {} } as never), /^parse: unknown option "limit"; the options are limits, params, sortParam\.$/],
  ['parse: "__proto__" passed through', () => parse('a=1', { params: ['__proto__'] }), /^parse: "__proto__" cannot be a pass-through parameter\.$/],
  ['parse: an empty sort parameter', () => parse('=x', { sortParam: '' }), /^parse: "sortParam" must be the name of the sort parameter \(not empty, not "__proto__"\), not the string ""\.$/],
  ['parse: "__proto__" as the sort parameter', () => parse('__proto__=x', { sortParam: '__proto__' }), /^parse: "sortParam" must be the name of the sort parameter/],
  // validate
  ['validate: a Result', () => validate(parse('a=1') as never, vendors), /^validate: the syntax tree must be the value of a successful parse\(\) \(type "Query"\), not an object\. This is a Result: check result\.ok, then pass result\.value\.$/],
  ['validate: a schema spec', () => validate(ast, spec as never), /^validate: the schema must be a schema made by defineSchema\(\)/],
  ['validate: a hand-built tree with a bad operator', () => validate({ ...ast, filters: [{ ...ast.filters[0]!, clauses: [{ ...ast.filters[0]!.clauses[0]!, operator: 'ge' as never }] }] }, vendors), /^validate: filters\[0\]\.clauses\[0\] must be a Clause node with an operator \(eq, gt, gte, lt, lte\), not an object\.$/],
  ['validate: a Param without a path', () => validate({ ...ast, filters: [{ ...ast.filters[0]!, path: undefined as never }] }, vendors), /^validate: filters\[0\]\.path must be a Path node/],
  ['validate: an unknown option', () => validate(ast, vendors, { limit: {} } as never), /^validate: unknown option "limit"; the options are params, limits\.$/],
  ['validate: a misspelt limit', () => validate(ast, vendors, { limits: { maxClause: 1 } as never }), /^validate: unknown limit "maxClause"; the limits are /],
  // format
  ['format: a failed parse', () => format((parse('a=') as { value?: never }).value as never), /^format: its argument must be a Filter \(the value of a successful check\(\)\) or a syntax tree \(of parse\(\)\), not undefined\.$/],
  ['format: a Result', () => format(check('vendorName=a', vendors) as never), /This is a Result: check result\.ok, then pass result\.value\.$/],
  ['format: a parameter that is no text', () => format({ ...filter, params: { limit: 5 as never } }), /^format: the parameter "limit" of the filter must be a string or an array of strings, not the number 5\.$/],
  ['format: a repeated parameter holding an object', () => format({ ...filter, params: { tag: ['a', {} as never] } }), /^format: the parameter "tag" of the filter must be a string or an array of strings, not an array\.$/],
  ['format: a hand-built condition of no type', () => format({ ...filter, conditions: [{ ...filter.conditions[0]!, type: 'text' as never }] }), /^format: the type of the condition on "vendorName" must be one of "number", "string", "date", "id", not the string "text"\.$/],
  // rendering
  ['formatDiagnostic: the list', () => formatDiagnostic([d] as never), /^formatDiagnostic: the diagnostic must be a diagnostic, with a code and a message, not an array\. Pass each diagnostic, or the list to formatDiagnostics\.$/],
  ['formatDiagnostic: a span past the text', () => formatDiagnostic({ ...d, span: { start: 2, end: 9 } }), /^formatDiagnostic: the diagnostic\.span must be offsets/],
  ['formatDiagnostic: a style that is not functions', () => formatDiagnostic(d, { style: { code: 'red' as never } }), /^formatDiagnostic: "style\.code" must be a function from text to styled text, not the string "red"\.$/],
  ['formatDiagnostics: one diagnostic', () => formatDiagnostics(d as never), /^formatDiagnostics: the diagnostics must be an array \(result\.errors\), not an object\.$/],
  ['formatDiagnostics: a Result', () => formatDiagnostics([check('a=', vendors)] as never), /^formatDiagnostics: diagnostics\[0\] must be a diagnostic/],
  // problem details
  ['toProblemDetails: a Result', () => toProblemDetails(check('a=', vendors) as never), /^toProblemDetails: the diagnostics must be an array \(result\.errors\), not an object\.$/],
  ['toProblemDetails: an instance that is not text', () => toProblemDetails([d], { instance: new URL('http://x/') as never }), /^toProblemDetails: "instance" must be a string, not a URL\.$/],
  ['toProblemDetails: no room for a diagnostic', () => toProblemDetails([d], { maxDiagnostics: 0 }), /^toProblemDetails: "maxDiagnostics" must be a positive integer or Infinity, not the number 0\.$/],
  // sortItems: a misspelt option would be ignored without a word, a hand-built sort ordered by nothing
  ['sortItems: an unknown option', () => sortItems([], sorted, { caseinsensitive: true } as never), /^sortItems: unknown option "caseinsensitive"; the options are caseInsensitive\.$/],
  ['sortItems: options that are not an object', () => sortItems([], sorted, 'ci' as never), /^sortItems: the options must be an object \(caseInsensitive\), not the string "ci"\.$/],
  ['sortItems: caseInsensitive that is not a boolean', () => sortItems([], sorted, { caseInsensitive: 'yes' as never }), /^sortItems: "caseInsensitive" must be true or false, not the string "yes"\.$/],
  ['sortItems: a sort of names', () => sortItems([], { sort: ['balance'] as never }), /^sortItems: sort key 0 must be an object with its key, the field's path, not the string "balance"\.$/],
  ['sortItems: a sort field of no type', () => sortItems([], { sort: [{ ...sorted.sort[0]!, type: 'money' as never }] }), /^sortItems: the type of the sort key "balance" must be one of "number", "string", "date", "id", not the string "money"\.$/],
  // find() answers undefined both for no bad name and for the name undefined: toSql wrote
  // 'undefined' into SQL, and the closures read a property of that name.
  ['toSql: undefined in a path', () => toSql({ ...filter, conditions: [{ ...filter.conditions[0]!, path: ['vendorName', undefined] }] } as never, { document: 'doc' }), /^toSql: each name in the path of the condition on "vendorName" must be a field name \(reference §3\), not undefined\.$/],
  ['compile: undefined in a path', () => compile({ ...filter, conditions: [{ ...filter.conditions[0]!, path: ['vendorName', undefined] }] } as never, { codegen: false }), /^compile: each name in the path of the condition on "vendorName" must be a field name \(reference §3\), not undefined\.$/],
  // A sparse array's holes are skipped by forEach and every, but read as undefined by the
  // code that uses the filter: a hand-built hole is refused like the undefined it holds.
  ['compile: a hole in the conditions', () => compile({ ...filter, conditions: [, filter.conditions[0]!] } as never), /^compile: condition 0 must be an object with its key, the parameter's name as sent, not undefined\.$/],
  ['compile: a hole in the tests', () => compile({ ...filter, conditions: [{ ...filter.conditions[0]!, tests: [, { op: 'eq', value: 'a' }] }] } as never), /^compile: test 0 of the condition on "vendorName" must be .*, not undefined\.$/],
  ['compile: a hole in a pattern', () => compile({ ...filter, conditions: [{ ...filter.conditions[0]!, tests: [{ op: 'like', segments: ['a', , 'b'] }] }] } as never), /^compile: test 0 of the condition on "vendorName" must be \{ op: "eq", value \} with a string, or \{ op: "like", segments \} with two strings or more, not an object\.$/],
  ['toSql: a hole in a sort path', () => toSql({ ...sorted, sort: [{ ...sorted.sort[0]!, path: ['balance', ,] }] } as never, { document: 'doc' }), /^toSql: the path of the sort key "balance" must be a non-empty array of property names, not an array\.$/],
  ['sortItems: a hole in the sort', () => sortItems([], { sort: [, sorted.sort[0]!] } as never), /^sortItems: sort key 0 must be an object with its key, the field's path, not undefined\.$/],
  ['validate: a hole in a pattern', () => validate({ ...ast, filters: [{ ...ast.filters[0]!, clauses: [{ operator: 'eq', operand: { type: 'Pattern', segments: ['a', , 'b'] } }] }] } as never, vendors), /^validate: filters\[0\]\.clauses\[0\]\.operand must be a Literal node/],
  ['format: a hole in the path', () => format({ ...filter, conditions: [{ ...filter.conditions[0]!, path: ['vendorName', ,] }] } as never), /^format: each name in the path of the condition on "vendorName" must be a field name \(reference §3\), not undefined\.$/],
  // A proxy whose looks throw is still described, so the error stays the TypeError.
  ['compile: a proxy that cannot be read', () => compile(new Proxy({}, { getPrototypeOf: () => { throw new Error('no'); } }) as never), /^compile: the filter must be a Filter \(the value of a successful check\(\) or validate\(\)\), not an object that cannot be read\.$/],
  // openApiParameters
  ['openApiParameters: an unknown option', () => openApiParameters(vendors, { caseinsensitive: true } as never), /^openApiParameters: unknown option "caseinsensitive"; the options are caseInsensitive\.$/],
  ['openApiParameters: caseInsensitive that is not a boolean', () => openApiParameters(vendors, { caseInsensitive: 'yes' as never }), /^openApiParameters: "caseInsensitive" must be true or false, not the string "yes"\.$/],
  // schemaFromJsonSchema
  ['schemaFromJsonSchema: sortable as one name', () => schemaFromJsonSchema(jsonSchema, { sortable: 'postedDate' as never }), /^schemaFromJsonSchema: "sortable" must be an array of top-level property names, not the string "postedDate"\.$/],
  ['schemaFromJsonSchema: an unknown option', () => schemaFromJsonSchema(jsonSchema, { sortabel: ['postedDate'] } as never), /^schemaFromJsonSchema: unknown option "sortabel"; the options are document, sortable\.$/],
  ['schemaFromJsonSchema: options that are not an object', () => schemaFromJsonSchema(jsonSchema, 5 as never), /^schemaFromJsonSchema: the options must be an object \(document, sortable\), not the number 5\.$/],
  ['schemaFromJsonSchema: a document that is not one', () => schemaFromJsonSchema(jsonSchema, { document: 'openapi.json' as never }), /^schemaFromJsonSchema: "document" must be the OpenAPI document or JSON Schema the \$refs point into, not the string "openapi\.json"\.$/],
  // a Result where its value belongs: the commonest slip of a first try
  ['compile: a Result', () => compile(check('vendorName=acme', vendors) as never), /^compile: the filter must be a Filter \(the value of a successful check\(\) or validate\(\)\), not an object\. This is a Result: check result\.ok, then pass result\.value\.$/],
  ['sortItems: a Result', () => sortItems([], check('orderBy=balance', vendors) as never), /^sortItems: the filter must be a checked Filter, with its sort, not an object\. This is a Result: check result\.ok, then pass result\.value\.$/],
  ['toSql: a Result', () => toSql(check('vendorName=acme', vendors) as never, { columns: {} }), /^toSql: the filter must be a Filter \(the value of a successful check\(\) or validate\(\)\), not an object\. This is a Result: check result\.ok, then pass result\.value\.$/],
  // the rest
  ['defineSchema: a schema', () => defineSchema(vendors as never), /^defineSchema: this is already a schema: use it as it is\.$/],
  ['splitRequestUrl: a URL object', () => splitRequestUrl(new URL('http://x/a?b=1') as never), /^splitRequestUrl: the URL must be a string \(the request URL as received: path and query\), not a URL\.$/],
  ['check: the catalog', () => check('a=1', catalog as never), /^check: the schema must be a schema made by defineSchema\(\), not an object\. This holds schemas: pass one of them, such as its "balanceSheets"\.$/],
  ['openApiParameters: a schema spec', () => openApiParameters(spec as never), /^openApiParameters: the schema must be a schema made by defineSchema\(\), not an object\. This is a schema spec/],
  ['withStandard: a schema spec', () => withStandard(spec as never), /^withStandard: the schema must be a schema made by defineSchema\(\), not an object\. This is a schema spec/],
];

describe('public functions refuse wrong arguments with a TypeError that says what was expected', () => {
  it.each(cases)('%s', (_, call, message) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(message);
  });

  it('detectCaseFolding: a connection that is not one, or whose query does not resolve to { rows }', async () => {
    await expect(detectCaseFolding(undefined as never)).rejects.toThrow(/^detectCaseFolding: the connection must be a client with a query\(text\) method, such as a pg Pool or Client, or a PGlite, not undefined\.$/);
    // pg-promise's db.query resolves to the rows themselves.
    const rowsOnly = { query: async () => [{ collname: 'und-x-icu' }] };
    await expect(detectCaseFolding(rowsOnly as never)).rejects.toThrow(new TypeError("detectCaseFolding: the connection's query(text) must resolve to a result with its rows ({ rows: [...] }), as a pg Pool or Client and a PGlite do."));
    expect(await detectCaseFolding({ query: async () => ({ rows: [{ collname: 'und-x-icu' }] }) })).toBe('icu');
  });

  it('the type guards answer false for anything else', () => {
    expect(isPattern(undefined as never)).toBe(false);
    expect(isComparison('ge' as never)).toBe(false);
    expect(isComparison('gte')).toBe(true);
  });

  it('a query that is not one stays a diagnostic: bad input, not a programmer error', () => {
    for (const input of [undefined, null, 42, [], new Map()]) {
      const result = check(input as never, vendors);
      expect(result.ok === false && result.errors.map((e) => e.code)).toEqual(['INVALID_PARAMETER']);
    }
  });
});

