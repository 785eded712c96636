/**
 * Builds the playground: one self-contained HTML file (its script, styles and railroad
 * diagrams inline; nothing loaded from elsewhere), which the example server serves at `/`.
 *
 * `npm run playground` writes it to `dist/playground.html`.
 */
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { diagramsFragment, diagramsStyle } from '../../grammar/diagrams';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/** Where `npm run playground` writes the page. */
export const PLAYGROUND_PATH = here('../../dist/playground.html');

/**
 * The page, as HTML text. Its script is `page.ts` bundled for the browser, with
 * `qsfilter` read from the sources (the same code the package builds from), so the page
 * needs no build of the package first.
 */
export async function buildPlayground(): Promise<string> {
  const result = await build({
    entryPoints: [here('./page.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    alias: { qsfilter: here('../../src/index.ts') },
    write: false,
    logLevel: 'silent',
  });
  // Inside <script>, "</script" would end it early; esbuild escapes it in strings already.
  const script = result.outputFiles[0]!.text;
  return readFileSync(here('./page.html'), 'utf8')
    .replace('/*DIAGRAMS_STYLE*/', () => diagramsStyle())
    .replace('<!--DIAGRAMS-->', () => diagramsFragment())
    .replace('/*SCRIPT*/', () => script);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const html = await buildPlayground();
  mkdirSync(here('../../dist'), { recursive: true });
  writeFileSync(PLAYGROUND_PATH, html);
  console.log(`wrote ${PLAYGROUND_PATH} (${Math.round(html.length / 1024)} KiB, self-contained)`);
}
