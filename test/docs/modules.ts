import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { at, type Snippet } from './markdown';

/**
 * Each snippet of the docs as a module a user could write: its imports, and its code in the
 * scope of the snippets it runs after (`after:` marks), each in a block of its own
 * nested in the previous one's, so that a later snippet sees the earlier declarations
 * and may redeclare a name. Imports move to the top, merged. Names `given:` to a snippet
 * are bound at the top of its block, from `test/docs/given.ts`.
 *
 * Two variants are written, line for line the same: one for `tsc`, as written; one to
 * run, where the snippet's own block first calls `__readme.begin()` (what runs before it
 * prints nothing the test looks at) and each expression followed by a value comment
 * is passed to `__readme.value(k, …)`.
 */

/** A `// value` comment: the page shows what the expression statement before it evaluates to. */
export interface ValueComment {
  /** The line of the snippet's page where the comment starts. */
  readonly line: number;
  /** The comment's text, without the `//` of each line. */
  readonly text: string;
}

/** A snippet made into modules. */
export interface SnippetModule {
  readonly snippet: Snippet;
  /** The snippets it runs after, outermost first. */
  readonly chain: readonly Snippet[];
  /** The typechecked variant and the one that runs. */
  readonly checkFile: string;
  readonly runFile: string;
  /** Where each line of the module (0-based) comes from (`docs/cli.md:12`), if from a page. */
  readonly lines: readonly (string | undefined)[];
  readonly values: readonly ValueComment[];
}

/** The module of the names `given:` to snippets. */
export const GIVEN = join(import.meta.dirname, 'given.ts');

interface Binding {
  readonly module: string;
  /** `default`, `*`, or the exported name. */
  readonly imported: string;
  readonly typeOnly: boolean;
  /** Where the import is: `README.md:61`. */
  readonly where: string;
}

interface Part {
  readonly snippet: Snippet;
  readonly body: string;
  readonly bindings: Map<string, Binding>;
  readonly sideEffects: string[];
}

/** The snippet's code with its imports blanked out (lines kept), and what they import. */
function partOf(snippet: Snippet): Part {
  const source = ts.createSourceFile('snippet.ts', snippet.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  let body = snippet.text;
  const bindings = new Map<string, Binding>();
  const sideEffects: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const module = (statement.moduleSpecifier as ts.StringLiteral).text;
    const where = at(snippet.page, snippet.line + source.getLineAndCharacterOfPosition(statement.getStart()).line);
    const clause = statement.importClause;
    const add = (local: string, imported: string, typeOnly: boolean) => {
      if (bindings.has(local)) throw new Error(`${where}: "${local}" is imported twice`);
      bindings.set(local, { module, imported, typeOnly, where });
    };
    if (clause === undefined) sideEffects.push(module);
    else {
      if (clause.name) add(clause.name.text, 'default', clause.isTypeOnly);
      const named = clause.namedBindings;
      if (named && ts.isNamespaceImport(named)) add(named.name.text, '*', clause.isTypeOnly);
      if (named && ts.isNamedImports(named)) {
        for (const element of named.elements) add(element.name.text, (element.propertyName ?? element.name).text, clause.isTypeOnly || element.isTypeOnly);
      }
    }
    const start = statement.getStart();
    const end = statement.getEnd();
    body = body.slice(0, start) + body.slice(start, end).replace(/[^\n]/g, ' ') + body.slice(end);
  }
  return { snippet, body, bindings, sideEffects };
}

/** The value comments of a snippet's own code, and that code with their expressions instrumented. */
function valuesOf(part: Part): { values: ValueComment[]; instrumented: string } {
  const code = part.body;
  const source = ts.createSourceFile('snippet.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lines = code.split('\n');
  const values: ValueComment[] = [];
  const edits: { start: number; end: number; k: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isExpressionStatement(node)) {
      const comment = commentAfter(lines, source.getLineAndCharacterOfPosition(node.getEnd()));
      if (comment !== undefined) {
        edits.push({ start: node.expression.getStart(), end: node.expression.getEnd(), k: values.length });
        values.push({ line: part.snippet.line + comment.line, text: comment.text });
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  let instrumented = code;
  for (const { start, end, k } of edits.reverse()) {
    instrumented = `${instrumented.slice(0, start)}__readme.value(${k}, (${instrumented.slice(start, end)}))${instrumented.slice(end)}`;
  }
  return { values, instrumented };
}

/**
 * The comment that follows a statement: one that ends the statement's last line, or one
 * that starts the line right after it, with the comment lines that follow it.
 */
function commentAfter(lines: readonly string[], end: ts.LineAndCharacter): { line: number; text: string } | undefined {
  const rest = lines[end.line]!.slice(end.character);
  let first: number;
  if (/^\s*\/\//.test(rest)) first = end.line;
  else if (rest.trim() === '' && /^\s*\/\//.test(lines[end.line + 1] ?? '')) first = end.line + 1;
  else return undefined;
  const texts = [first === end.line ? rest.replace(/^\s*\/\//, '') : lines[first]!.replace(/^\s*\/\//, '')];
  for (let i = first + 1; i < lines.length && /^\s*\/\//.test(lines[i]!); i++) texts.push(lines[i]!.replace(/^\s*\/\//, ''));
  return { line: first, text: texts.join('\n') };
}

/** The snippets `snippet` runs after, outermost first, each once; `order` ranks snippets (pages in order, then lines). */
export function chainOf(snippet: Snippet, byId: ReadonlyMap<string, Snippet>, order: (s: Snippet) => number): Snippet[] {
  const chain: Snippet[] = [];
  const visit = (s: Snippet, path: readonly Snippet[]) => {
    for (const id of s.marks.after ?? []) {
      const earlier = byId.get(id);
      if (earlier === undefined) throw new Error(`${at(s.page, s.line)}: no snippet has the id "${id}"`);
      if (order(earlier) >= order(s) || path.includes(earlier)) throw new Error(`${at(s.page, s.line)}: "${id}" must be an earlier snippet`);
      visit(earlier, [...path, earlier]);
      if (!chain.includes(earlier)) chain.push(earlier);
    }
  };
  visit(snippet, [snippet]);
  return chain;
}

/** `pool`, `kysely as db` → the destructuring `pool, kysely: db`. */
function givenPattern(names: readonly string[]): string {
  return names.map((name) => name.replace(/^(\w+)\s+as\s+(\w+)$/, '$1: $2')).join(', ');
}

/**
 * Writes the modules of every snippet that is not a fragment into `dir`. `snippets` are
 * those of every page, the pages in order, each page's in order of lines. `captures`
 * names, by snippet id, declarations whose values the run variant hands to
 * `__readme.capture` at the end of the snippet.
 */
export function writeModules(snippets: readonly Snippet[], dir: string, captures: Readonly<Record<string, readonly string[]>> = {}): SnippetModule[] {
  const byId = new Map<string, Snippet>();
  for (const s of snippets) {
    if (s.marks.id === undefined) continue;
    if (byId.has(s.marks.id)) throw new Error(`${at(s.page, s.line)}: the id "${s.marks.id}" is taken`);
    byId.set(s.marks.id, s);
  }
  const rank = new Map(snippets.map((s, i) => [s, i]));
  const order = (s: Snippet) => rank.get(s)!;
  mkdirSync(join(dir, 'check'), { recursive: true });
  mkdirSync(join(dir, 'run'), { recursive: true });
  const modules: SnippetModule[] = [];
  for (const snippet of snippets) {
    if (snippet.marks.fragment !== undefined) continue;
    const chain = chainOf(snippet, byId, order);
    const fragment = chain.find((s) => s.marks.fragment !== undefined);
    if (fragment) throw new Error(`${at(snippet.page, snippet.line)}: it runs after the fragment at ${at(fragment.page, fragment.line)}`);
    const parts = [...chain, snippet].map(partOf);
    const own = parts[parts.length - 1]!;
    const { values, instrumented } = valuesOf(own);

    // Imports, merged by module: the first snippet that imports a name decides where it comes from.
    const header: { text: string; where: string }[] = [];
    const merged = new Map<string, Binding>();
    for (const part of parts) {
      for (const [local, binding] of part.bindings) {
        const seen = merged.get(local);
        if (seen && (seen.module !== binding.module || seen.imported !== binding.imported)) {
          throw new Error(`${binding.where}: "${local}" is imported from ${binding.module}, and from ${seen.module} by a snippet it runs after`);
        }
        if (!seen) merged.set(local, binding);
      }
    }
    const modulesInOrder = [...new Set([...parts.flatMap((p) => p.sideEffects), ...[...merged.values()].map((b) => b.module)])];
    for (const module of modulesInOrder) {
      const of = [...merged].filter(([, b]) => b.module === module);
      const where = of[0]?.[1].where ?? at(snippet.page, snippet.line);
      if (of.length === 0) header.push({ text: `import '${module}';`, where });
      const named = of.filter(([, b]) => b.imported !== 'default' && b.imported !== '*');
      const defaults = of.filter(([, b]) => b.imported === 'default').map(([local]) => local);
      for (const [local] of of.filter(([, b]) => b.imported === '*')) header.push({ text: `import * as ${local} from '${module}';`, where });
      const names = named.map(([local, b]) => `${b.typeOnly ? 'type ' : ''}${b.imported === local ? local : `${b.imported} as ${local}`}`);
      const clauses = [...defaults, ...(names.length > 0 ? [`{ ${names.join(', ')} }`] : [])];
      if (clauses.length > 0) header.push({ text: `import ${clauses.join(', ')} from '${module}';`, where });
    }
    const needsGiven = parts.some((p) => (p.snippet.marks.given ?? []).length > 0);
    if (needsGiven) header.push({ text: `import * as __given from '${relative(join(dir, 'check'), GIVEN)}';`, where: at(snippet.page, snippet.line) });

    const lines: (string | undefined)[] = header.map((h) => h.where);
    const check: string[] = header.map((h) => h.text);
    const run: string[] = [...check];
    for (const part of parts) {
      const given = part.snippet.marks.given ?? [];
      const open = `{${given.length > 0 ? ` const { ${givenPattern(given)} } = __given;` : ''}`;
      check.push(open);
      run.push(part === own ? `${open} __readme.begin();` : open);
      lines.push(at(part.snippet.page, part.snippet.line - 1));
      const body = part.body.split('\n');
      const runBody = part === own ? instrumented.split('\n') : body;
      body.forEach((line, i) => {
        check.push(line);
        run.push(runBody[i]!);
        lines.push(at(part.snippet.page, part.snippet.line + i));
      });
    }
    const captured = captures[snippet.marks.id ?? ''] ?? [];
    for (let i = 0; i < parts.length; i++) {
      check.push('}');
      run.push(i === 0 && captured.length > 0 ? `__readme.capture({ ${captured.join(', ')} }); }` : '}');
      lines.push(undefined);
    }
    // docs/cli.md:12 → docs-cli-12.ts
    const name = `${snippet.page.replace(/\.md$/, '').replace(/\W+/g, '-')}-${snippet.line}.ts`;
    const checkFile = join(dir, 'check', name);
    const runFile = join(dir, 'run', name);
    writeFileSync(checkFile, `${check.join('\n')}\n`);
    writeFileSync(runFile, `${run.join('\n')}\n`);
    modules.push({ snippet, chain, checkFile, runFile, lines, values });
  }
  return modules;
}

/** The compiler options of a user's project: strict, for Node, importing the package by its name. */
export const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  types: ['node'],
  skipLibCheck: true,
  noEmit: true,
  allowImportingTsExtensions: true,
};

/** A type error, where the docs have it. */
export interface TypeProblem {
  /** Where on a page (`docs/cli.md:12`), or undefined when the error is elsewhere (in given.ts, or a module line of no snippet). */
  readonly where: string | undefined;
  readonly file: string;
  readonly message: string;
}

/** Typechecks every module in one program: the errors of each, where on a page. */
export function typecheck(modules: readonly SnippetModule[]): Map<SnippetModule, TypeProblem[]> {
  const program = ts.createProgram({ rootNames: modules.map((m) => m.checkFile), options: COMPILER_OPTIONS });
  const byFile = new Map(modules.map((m) => [m.checkFile, m]));
  const errors = new Map<SnippetModule, TypeProblem[]>(modules.map((m) => [m, []]));
  const elsewhere: TypeProblem[] = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const file = diagnostic.file?.fileName ?? '(options)';
    const module = byFile.get(file);
    if (module === undefined || diagnostic.file === undefined || diagnostic.start === undefined) {
      elsewhere.push({ where: undefined, file, message });
      continue;
    }
    const where = module.lines[diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line];
    errors.get(module)!.push({ where, file, message });
  }
  // An error outside the snippets (given.ts) belongs to every snippet: none can be trusted.
  for (const list of errors.values()) list.push(...elsewhere);
  return errors;
}
