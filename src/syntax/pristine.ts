/**
 * Chevrotain builds its lexers and parsers with plain objects and arrays as sparse maps
 * (`map[i] === undefined ? (map[i] = [x]) : map[i].push(x)`), so a property that other
 * code added to `Object.prototype` or `Array.prototype` (`Array.prototype[0] = …`, a
 * polluted `Object.prototype.CATEGORIES`) reads as an entry that is there, and building
 * throws (`e[t].push is not a function`) or builds a different grammar. Once built,
 * lexing and parsing read no such map, so a prototype polluted after the first call
 * changes nothing; this makes the first call alike.
 */

/**
 * Runs `build` with `Object.prototype` and `Array.prototype` as the language made them:
 * what other code added to them (an enumerable property, which no built-in is, or an
 * array index, which no built-in has) is taken off for the call and put back as it was,
 * descriptor and order alike, whatever `build` does. Nothing else runs meanwhile (the
 * call is synchronous, and no getter of the hidden properties can be called), so no
 * other code sees the prototypes without them. A property that cannot be taken off
 * (non-configurable) stays.
 */
export function withPristinePrototypes<T>(build: () => T): T {
  const hidden: [object, string, PropertyDescriptor][] = [];
  try {
    for (const proto of [Object.prototype, Array.prototype]) {
      for (const key of Object.getOwnPropertyNames(proto)) {
        // Without a prototype: once Object.prototype's own `get` or `set` is back, a plain
        // descriptor would inherit it, and putting Array.prototype's back would fail.
        const descriptor = Object.setPrototypeOf(Object.getOwnPropertyDescriptor(proto, key)!, null) as PropertyDescriptor;
        // Added by other code: enumerable (no built-in is), or an array index (no built-in has one).
        if ((descriptor.enumerable === true || String(Number(key) >>> 0) === key) && Reflect.deleteProperty(proto, key)) hidden.push([proto, key, descriptor]);
      }
    }
    return build();
  } finally {
    for (const [proto, key, descriptor] of hidden) Reflect.defineProperty(proto, key, descriptor);
  }
}
