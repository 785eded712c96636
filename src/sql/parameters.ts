/** A value bound to a placeholder: numbers and texts, which every Postgres client sends as is. */
export type SqlValue = string | number;

/**
 * Collects the bound values of one statement and hands out their placeholders, numbered
 * from `first` so that the SQL can be appended to a query that already has parameters.
 */
export class Parameters {
  readonly values: SqlValue[] = [];

  constructor(private readonly first: number) {}

  /** The placeholder of a new bound value, with a cast where the type must not be left to inference. */
  add(value: SqlValue, cast?: string): string {
    this.values.push(value);
    const placeholder = `$${this.first + this.values.length - 1}`;
    return cast === undefined ? placeholder : `${placeholder}::${cast}`;
  }
}
