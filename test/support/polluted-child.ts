/**
 * Run by test/check/pollution.test.ts in a fresh process: pollutes Object.prototype and
 * Array.prototype (when asked) before importing the package named in argv (src or
 * dist), between the import and its first check, or after the first check, then prints what check, format, compile, sortItems, pageItems,
 * toSql, sqlIndexes, parse, openApiParameters and toProblemDetails make of a few queries, a
 * walk by cursor (nextCursor, pageItems, toSql on every target, the client builder,
 * sqlIndexes and sqlConstraints of a schema that pages by cursor),
 * each given an empty options object, as JSON, for the test to hold equal to an
 * unpolluted run.
 */
const { module: target, when, keys } = JSON.parse(process.argv[2]!) as { module: string; when: 'before' | 'imported' | 'after' | 'never'; keys: string[] };

/** Adds each key to both prototypes, where it is not a built-in already (`Array.prototype.sort`): added, never replaced. */
function pollute(): void {
  for (const proto of [Object.prototype, Array.prototype] as Record<string, unknown>[]) {
    for (const key of keys) if (!Object.hasOwn(proto, key)) proto[key] = 'polluted';
  }
}

const QUERIES = [
  'totalAmount=gte:100;lte:200&status=%25paid%25&lines.description="x;y"&orderBy=-totalAmount,postedDate&customerRef.id=42&limit=5&offset=1',
  'totalAmount=gt&x=1;;&a="b&c=\\q&orderBy=--a,&postedDate=2023-01-0&lines.memo=1',
  'status=a%25b%25c&businessName=x&postedDate=gt:2023-01-09T10:00:00%2B01:00',
];

if (when === 'before') pollute();
const { check, compile, defineSchema, format, invoices, nextCursor, openApiParameters, pageItems, parse, query, sortItems, sqlConstraints, sqlIndexes, toProblemDetails, toSql } = (await import(
  target
)) as typeof import('../../src/index');
if (when === 'imported') pollute();
if (when === 'after') {
  check(QUERIES[0]!, invoices);
  pollute();
}
const item = JSON.parse('{"totalAmount":150,"status":"paid","postedDate":"2023-02-01","lines":[{"description":"x;y"}],"customerRef":{"id":42}}') as unknown;
const items = JSON.parse('[{"totalAmount":2,"status":"B"},{"totalAmount":1,"status":"a"},{}]') as object[];
const typed = { document: 'doc', table: 'invoice_docs', typed: true };
const out = QUERIES.map((query) => {
  const result = check(query, invoices, {});
  const parsed = parse(query, {}).ok;
  if (!result.ok) return { result, parsed, problem: toProblemDetails(result.errors, {}) };
  const filter = result.value;
  return {
    result,
    parsed,
    format: format(filter),
    generated: compile(filter, {})(item),
    closures: compile(filter, { codegen: false })(item),
    sorted: sortItems(items, filter, {}),
    paged: pageItems(items, filter, {}),
    document: toSql(filter, { document: 'doc' }, {}),
    typed: toSql(filter, typed, {}),
    relational: toSql(filter, { columns: { totalAmount: 'total', status: 'status', postedDate: 'posted', 'customerRef.id': 'customer_id' }, arrays: { lines: { table: 'lines', parentKey: 'id', foreignKey: 'invoice_id', columns: { description: 'description' } } }, table: 'invoices' }, {}),
  };
});

// Cursor paging (issue 32, item 6): a walk through every page of a schema that pages by
// cursor, case folded and not, in memory and through each SQL target, and the client.
const paged = defineSchema({
  fields: { id: { type: 'string', sortable: true }, totalAmount: { type: 'number', sortable: true }, status: { type: 'string', sortable: true } },
  paging: { defaultLimit: 2, maxLimit: 10, cursor: { key: 'id' } },
});
const rows = JSON.parse('[{"id":"a","totalAmount":3,"status":"x"},{"id":"A","totalAmount":3,"status":"X"},{"id":"b","totalAmount":1},{"id":"c"}]') as object[];
const relational = { table: 'items', columns: { id: 'id', totalAmount: 'total', status: 'status' } };
const walks = [false, true].map((caseInsensitive) => {
  const pages: unknown[] = [];
  let result = check('orderBy=-totalAmount,status&limit=1', paged, { caseInsensitive });
  for (let i = 0; result.ok && i < 6; i++) {
    const filter = result.value;
    const page = pageItems(rows, filter, {});
    const sql = [relational, { document: 'doc' }, typed].map((target) => toSql(filter, target, {}));
    const token = page.length === 0 ? undefined : nextCursor(filter, page.at(-1));
    pages.push({ filter, page, sql, token });
    if (token === undefined) break;
    result = check(`orderBy=-totalAmount,status&limit=1&after=${token}`, paged, { caseInsensitive });
  }
  return { pages, last: result };
});
const builder = query(paged).orderBy('totalAmount', 'desc');
const client = { plain: builder.toString(), filter: builder.toFilter(), limited: builder.limit(1).toString() };
const schemas = [relational, typed].map((target) => ({ indexes: sqlIndexes(paged, target, {}), constraints: sqlConstraints(paged, target) }));

// What was added is still there, as it was: the package takes nothing away for good.
const kept = when === 'never' || keys.every((key) => [Object.prototype, Array.prototype].every((proto) => Object.hasOwn(proto, key)));
process.stdout.write(JSON.stringify({ out, indexes: sqlIndexes(invoices, typed, {}), openApi: openApiParameters(invoices, {}), walks, client, schemas, kept }));
export {};
