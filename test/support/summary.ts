import type { Diagnostic, FilterAst } from '../../src/index';

/** A clause as the conformance vectors write it: `[operator, "literal"]` or `[operator, ["seg", "ments"]]`. */
export type ClauseSummary = [string, string | string[]];

/** The language-neutral form of an AST used by `grammar/vectors`: no spans, no source text. */
export interface AstSummary {
  filters: { key: string; path: string[]; clauses: ClauseSummary[] }[];
  params: Record<string, string | string[]>;
  /** The sort keys, when the query has a sort parameter: `[direction, path]`. */
  sort?: [string, string[]][];
}

/** Reduces an AST to what the conformance vectors compare. */
export function summarize(ast: FilterAst): AstSummary {
  return {
    filters: ast.filters.map((p) => ({
      key: p.key,
      path: p.path.names.map((n) => n.value),
      clauses: p.clauses.map((c): ClauseSummary => [
        c.operator,
        c.operand.type === 'Literal' ? c.operand.value : [...c.operand.segments],
      ]),
    })),
    params: Object.fromEntries(Object.entries(ast.params).map(([k, v]) => [k, typeof v === 'string' ? v : [...v]])),
    ...(ast.sort === undefined ? {} : { sort: ast.sort.keys.map((k): [string, string[]] => [k.direction, k.path.names.map((n) => n.value)]) }),
  };
}

/** A diagnostic as the vectors write it: only the fields a vector names are compared. */
export interface DiagnosticSummary {
  code: string;
  param?: string;
  in?: 'key' | 'value';
  span?: [number, number];
}

export function summarizeDiagnostic(d: Diagnostic): DiagnosticSummary {
  const s: DiagnosticSummary = { code: d.code };
  if (d.param !== undefined) s.param = d.param;
  if (d.in !== undefined) s.in = d.in;
  if (d.span !== undefined) s.span = [d.span.start, d.span.end];
  return s;
}
