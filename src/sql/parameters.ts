/** A value bound to a placeholder: numbers and texts, which every Postgres client sends as is. */
export type SqlValue = string | number;

/**
 * Collects the bound values of one statement. The SQL is written with a marker where
 * each value goes, a NUL-delimited index: no identifier (`quoteIdentifier` refuses NUL)
 * and no constant of ours holds a NUL, so the markers are found exactly, and turned
 * into `$n` placeholders (`numbered`) or cut into a template (`templated`).
 */
export class Parameters {
  readonly values: SqlValue[] = [];

  /** The marker of a new bound value, with a cast where the type must not be left to inference. */
  add(value: SqlValue, cast?: string): string {
    this.values.push(value);
    const marker = `\0${this.values.length - 1}\0`;
    return cast === undefined ? marker : `${marker}::${cast}`;
  }
}

const MARKER = /\0(\d+)\0/g;

/** The SQL with `$n` placeholders, numbered from `first` in the order the values were added. */
export function numbered(text: string, first: number): string {
  return text.replace(MARKER, (_, index: string) => `$${first + Number(index)}`);
}

/** The SQL cut at its markers: the texts between them, and the value of each marker in reading order. */
export function templated(text: string, values: readonly SqlValue[]): { strings: string[]; values: SqlValue[] } {
  const parts = text.split(MARKER);
  // split keeps the captured index between the texts: text, index, text, index, …, text.
  return {
    strings: parts.filter((_, i) => i % 2 === 0),
    values: parts.filter((_, i) => i % 2 === 1).map((index) => values[Number(index)]!),
  };
}
