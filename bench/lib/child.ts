/**
 * Runs one bench file in this (fresh) process and sends its report to the runner.
 * A file whose default export is a scenario (`defineScenario`) is run and reported;
 * any other `*.bench.ts` (a plain mitata script, say) ran when it was imported and
 * printed its own output.
 */
import { pathToFileURL } from 'node:url';
import { Mismatch, type Report, type Scenario } from './scenario';

export type ChildMessage =
  | { readonly kind: 'report'; readonly report: Report }
  | { readonly kind: 'script' }
  | { readonly kind: 'mismatch'; readonly message: string }
  | { readonly kind: 'error'; readonly message: string };

const [file, quickFlag] = process.argv.slice(2);

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (process.send === undefined) {
      console.log(JSON.stringify(message, null, 2));
      resolve();
    } else process.send(message, () => resolve());
  });
}

try {
  const module = (await import(pathToFileURL(file!).href)) as { default?: Partial<Scenario> };
  const scenario = module.default;
  if (scenario !== undefined && typeof scenario.run === 'function') {
    const report = await scenario.run({ quick: quickFlag === '--quick' });
    await send({ kind: 'report', report });
  } else {
    await send({ kind: 'script' });
  }
} catch (error) {
  if (error instanceof Mismatch) await send({ kind: 'mismatch', message: error.message });
  else await send({ kind: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exitCode = 1;
}
process.disconnect?.();
