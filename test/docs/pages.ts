import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's root directory. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A page of the docs: its path from the root (`docs/cli.md`) and its text. */
export interface Page {
  readonly page: string;
  readonly text: string;
}

/** The pages of docs/ that the index, docs/README.md, links, in its order (`cli.md`). */
export function indexed(): string[] {
  const index = readFileSync(join(ROOT, 'docs', 'README.md'), 'utf8');
  const names = [...index.matchAll(/\]\(([\w-]+\.md)(?:#[\w-]*)?\)/g)].map((m) => m[1]!);
  return [...new Set(names)];
}

/** Every Markdown page of docs/, by file name, in no particular order (the index included). */
export function inDocs(): string[] {
  return readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
}

/**
 * The pages the tests read, in the order their snippets run: the README, the index,
 * then the pages as the index lists them (a snippet may follow one of an earlier page).
 */
export function pages(): Page[] {
  return ['README.md', 'docs/README.md', ...indexed().map((name) => `docs/${name}`)].map((page) => ({
    page,
    text: readFileSync(join(ROOT, page), 'utf8'),
  }));
}
