import { accessSync, constants, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reason, UsageError } from '../usage';

/** The signals that stop the command, after which its temporary files must be gone. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * The directory of a sort's temporary files: made in `parent` (`--temp-dir`, else
 * `TMPDIR`, else the system's) on the first file asked for, and removed with everything
 * in it by `remove`: when the sort is done, on an error, and, from the moment it exists,
 * when the process exits or is stopped by SIGINT, SIGTERM or SIGHUP (then the signal is
 * raised again, so that the shell sees the command stopped by it). Only SIGKILL can leave
 * it behind.
 */
export class TempDir {
  private path: string | undefined;
  private files = 0;
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    this.remove();
    process.kill(process.pid, signal);
  };
  private readonly onExit = (): void => this.remove();

  /** @param parent the directory to make it in; it must exist and be writable (checked here, before any input is read). */
  constructor(readonly parent: string = tmpdir()) {
    try {
      if (!statSync(parent).isDirectory()) throw new Error('it is not a directory');
      accessSync(parent, constants.W_OK);
    } catch (error) {
      throw new UsageError(`cannot keep the sort's temporary files in ${JSON.stringify(parent)}: ${reason(error)}; give --temp-dir a directory to write to`, { synopsis: false });
    }
  }

  /** A new file's path in the directory, which is made on the first call. */
  file(): string {
    if (this.path === undefined) {
      try {
        this.path = mkdtempSync(join(this.parent, 'qsfilter-sort-'));
      } catch (error) {
        throw new UsageError(`cannot make the sort's temporary directory in ${JSON.stringify(this.parent)}: ${reason(error)}; give --temp-dir a directory to write to`, { synopsis: false });
      }
      for (const signal of SIGNALS) process.once(signal, this.onSignal);
      process.once('exit', this.onExit);
    }
    return join(this.path, `run-${++this.files}`);
  }

  /** Removes the directory and all in it (nothing when it was never made). */
  remove(): void {
    if (this.path === undefined) return;
    rmSync(this.path, { recursive: true, force: true });
    this.path = undefined;
    for (const signal of SIGNALS) process.off(signal, this.onSignal);
    process.off('exit', this.onExit);
  }
}
