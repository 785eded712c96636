import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Limits, QueryRecord } from '../../src/index';
import { BUILDS, type Package } from '../support/builds';
import { summarize, summarizeDiagnostic, type AstSummary, type DiagnosticSummary } from '../support/summary';
import { SYNTAX_CODES } from '../support/codes';

/** One conformance vector, as `grammar/vectors/README.md` describes it. */
interface Vector {
  name: string;
  note?: string;
  query?: string;
  record?: Record<string, unknown>;
  params?: string[];
  sortParam?: string;
  limits?: Partial<Limits>;
  ast?: AstSummary;
  errors?: DiagnosticSummary[];
}

interface VectorFile {
  topic: string;
  description: string;
  vectors: Vector[];
}

const VECTOR_KEYS = new Set(['name', 'note', 'query', 'record', 'params', 'sortParam', 'limits', 'ast', 'errors']);
const ERROR_KEYS = new Set(['code', 'param', 'in', 'span']);


const directory = new URL('../../grammar/vectors/', import.meta.url);
const files: VectorFile[] = readdirSync(directory)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => JSON.parse(readFileSync(new URL(name, directory), 'utf8')) as VectorFile);

/** Runs a vector and reduces the outcome to the fields the vector names. */
function outcome(vector: Vector, { parse }: Package): { ast: AstSummary } | { errors: DiagnosticSummary[] } {
  const input = vector.query ?? (vector.record as QueryRecord);
  const result = parse(input, {
    ...(vector.params !== undefined && { params: vector.params }),
    ...(vector.sortParam !== undefined && { sortParam: vector.sortParam }),
    ...(vector.limits !== undefined && { limits: vector.limits }),
  });
  if (result.ok) return { ast: summarize(result.value) };
  return {
    errors: result.errors.map((d, i) => {
      const full = summarizeDiagnostic(d);
      const wanted = vector.errors?.[i];
      if (wanted === undefined) return full;
      // Only the fields a vector gives are compared; a missing one in the result still shows.
      const picked: Record<string, unknown> = { code: full.code };
      for (const key of Object.keys(wanted)) picked[key] = full[key as keyof DiagnosticSummary];
      return picked as unknown as DiagnosticSummary;
    }),
  };
}

describe('grammar/vectors', () => {
  it('has vectors in every topic file and at least 80 in all', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(file.vectors.length, `${file.topic}.json`).toBeGreaterThan(0);
    expect(files.reduce((n, f) => n + f.vectors.length, 0)).toBeGreaterThanOrEqual(80);
  });

  it('are well-formed: one input, one expectation, known fields, unique names', () => {
    const names = new Set<string>();
    for (const file of files) {
      for (const v of file.vectors) {
        const where = `${file.topic}: ${v.name}`;
        expect(typeof v.name, where).toBe('string');
        expect(names.has(where), `${where} is not unique`).toBe(false);
        names.add(where);
        expect(Object.keys(v).filter((k) => !VECTOR_KEYS.has(k)), where).toEqual([]);
        expect((v.query === undefined) !== (v.record === undefined), `${where}: query or record`).toBe(true);
        expect((v.ast === undefined) !== (v.errors === undefined), `${where}: ast or errors`).toBe(true);
        if (v.errors !== undefined) {
          expect(v.errors.length, where).toBeGreaterThan(0);
          for (const e of v.errors) expect(Object.keys(e).filter((k) => !ERROR_KEYS.has(k)), where).toEqual([]);
        }
      }
    }
  });

  it('cover every diagnostic code that parse can report', () => {
    const codes = new Set(files.flatMap((f) => f.vectors.flatMap((v) => (v.errors ?? []).map((e) => e.code))));
    expect(SYNTAX_CODES.filter((code) => !codes.has(code))).toEqual([]);
  });

  // On the sources and on the built package, ES module and CommonJS: what ships is what is tested.
  describe.each(BUILDS)('on %s', (_build, pkg) => {
    for (const file of files) {
      describe(file.topic, () => {
        it.each(file.vectors.map((v) => [v.name, v] as const))('%s', (_name, vector) => {
          const expected = vector.ast !== undefined ? { ast: vector.ast } : { errors: vector.errors };
          expect(outcome(vector, pkg)).toEqual(expected);
        });
      });
    }
  });
});
