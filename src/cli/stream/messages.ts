import { jsonQuote } from '../../text/quote';
import { isDigit, MINUS, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './chars';

/** How the splitter names what it read, in its messages. */

/** Where an item starts: its number among the items (from 1) and its line (from 1). */
export interface ItemPosition {
  readonly item: number;
  readonly line: number;
}

/** A path (or the part of it read so far), for a message: `"result.items"`, escaped as the command escapes all it prints. */
export function pathText(names: readonly string[]): string {
  return jsonQuote(names.join('.'));
}

/** The object at `depth` on the path, for a message. */
export function objectAt(path: readonly string[], depth: number): string {
  return depth === 0 ? 'the input\'s object' : `the object at --path ${pathText(path.slice(0, depth))}`;
}

/** An item's position, for a message: `item 12 (line 3)`. */
export function describeItem(position: ItemPosition): string {
  return `item ${position.item} (line ${position.line})`;
}

/** What a value that starts with `c` is, for a message. */
export function kindOf(c: number): string {
  switch (c) {
    case OPEN_BRACE:
      return 'an object';
    case OPEN_BRACKET:
      return 'an array';
    case QUOTE:
      return 'a string';
    default:
      return c === MINUS || isDigit(c) ? 'a number' : 'a value that is not an object';
  }
}
