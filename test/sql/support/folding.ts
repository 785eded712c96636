import type { CaseFolding } from '../../../src/index';
import { supportedCaseFoldings } from '../../../src/sql/text';
import type { Database } from '../../support/databases';

/** The foldings a database supports that mean what `compile` means (all but `ascii`), best first. */
export async function exactFoldings(db: Database): Promise<CaseFolding[]> {
  return (await supportedCaseFoldings(db)).filter((folding) => folding !== 'ascii');
}
