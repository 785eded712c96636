/**
 * `%` matching without regular expressions. A pattern is its literal segments (the
 * texts between wildcards): the text must start with the first, end with the last, and
 * hold the ones between in order. Taking each middle segment at its leftmost place
 * after the previous one is always right when `%` is the only wildcard, so one
 * forward pass decides: the work is linear in the text, whatever the pattern
 * (`%a%a%a…%b` included), with no backtracking.
 */
export function compileLike(segments: readonly string[]): (text: string) => boolean {
  const n = segments.length;
  const first = segments[0]!;
  const last = segments[n - 1]!;
  if (n === 1) return (text) => text === first;
  const middle = segments.slice(1, -1).filter((s) => s !== '');
  const fixed = first.length + last.length;
  if (middle.length === 0) {
    if (first === '' && last === '') return () => true;
    if (last === '') return (text) => text.startsWith(first);
    if (first === '') return (text) => text.endsWith(last);
    return (text) => text.length >= fixed && text.startsWith(first) && text.endsWith(last);
  }
  if (middle.length === 1 && first === '' && last === '') {
    const only = middle[0]!;
    return (text) => text.includes(only);
  }
  return (text) => {
    if (text.length < fixed || !text.startsWith(first) || !text.endsWith(last)) return false;
    const end = text.length - last.length;
    let at = first.length;
    for (const segment of middle) {
      const found = text.indexOf(segment, at);
      if (found === -1 || found + segment.length > end) return false;
      at = found + segment.length;
    }
    return true;
  };
}
