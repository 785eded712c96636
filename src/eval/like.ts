/**
 * `%` matching without regular expressions. A pattern is its literal segments (the
 * texts between wildcards): the text must start with the first, end with the last, and
 * hold the ones between in order. Taking each middle segment at its leftmost place
 * after the previous one is always right when `%` is the only wildcard, so one
 * forward pass decides: the work is linear in the text, whatever the pattern
 * (`%a%a%a…%b` included), with no backtracking.
 */

/**
 * The forms a pattern takes, by where its wildcards are and which segments are empty:
 * the commonest have a one-call test (`%acme%` is `includes`), the rest go through
 * `matchSegments`. A form depends on the pattern's layout only, never on its texts.
 */
export type LikeForm = 'any' | 'prefix' | 'suffix' | 'affix' | 'contains' | 'general';

/** The form of a pattern of two or more segments. */
export function likeForm(segments: readonly string[]): LikeForm {
  const n = segments.length;
  const first = segments[0] !== '';
  const last = segments[n - 1] !== '';
  let middle = 0;
  for (let i = 1; i < n - 1; i++) if (segments[i] !== '') middle++;
  if (middle === 0) return first ? (last ? 'affix' : 'prefix') : last ? 'suffix' : 'any';
  return middle === 1 && !first && !last ? 'contains' : 'general';
}

/**
 * What each form compares with, in the order the tests use them: the one text of a
 * prefix, suffix or contains; the first and last texts and their total length for an
 * affix; the segments themselves for the general form.
 */
export function likeOperands(form: LikeForm, segments: readonly string[]): unknown[] {
  const first = segments[0]!;
  const last = segments[segments.length - 1]!;
  switch (form) {
    case 'any':
      return [];
    case 'prefix':
      return [first];
    case 'suffix':
      return [last];
    case 'affix':
      return [first, last, first.length + last.length];
    case 'contains':
      return [segments.find((s) => s !== '')!];
    case 'general':
      return [segments];
  }
}

/** The general form: `text` starts with the first segment, ends with the last, and holds the others in order between. */
export function matchSegments(text: string, segments: readonly string[]): boolean {
  const n = segments.length;
  const first = segments[0]!;
  const last = segments[n - 1]!;
  if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  const end = text.length - last.length;
  let at = first.length;
  for (let i = 1; i < n - 1; i++) {
    const segment = segments[i]!;
    if (segment === '') continue;
    const found = text.indexOf(segment, at);
    if (found === -1 || found + segment.length > end) return false;
    at = found + segment.length;
  }
  return true;
}

/** A matcher for a pattern's segments (one segment: equality). */
export function compileLike(segments: readonly string[]): (text: string) => boolean {
  if (segments.length === 1) {
    const only = segments[0]!;
    return (text) => text === only;
  }
  const form = likeForm(segments);
  return likeMatcher(form, likeOperands(form, segments));
}

/** The matcher of a pattern of the given form, from its operands (see `likeOperands`). */
export function likeMatcher(form: LikeForm, operands: readonly unknown[]): (text: string) => boolean {
  const [a, b, length] = operands as [string, string, number];
  switch (form) {
    case 'any':
      return () => true;
    case 'prefix':
      return (text) => text.startsWith(a);
    case 'suffix':
      return (text) => text.endsWith(a);
    case 'affix':
      return (text) => text.length >= length && text.startsWith(a) && text.endsWith(b);
    case 'contains':
      return (text) => text.includes(a);
    case 'general': {
      const segments = operands[0] as readonly string[];
      return (text) => matchSegments(text, segments);
    }
  }
}
