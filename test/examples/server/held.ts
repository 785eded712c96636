import type { Store } from '../../../examples/server/store/store';

/**
 * A store whose finds wait until the test releases them (each answers no items): what is
 * in flight, and when it ends, is the test's to decide. `inFind` resolves once the first
 * find has begun. Writes answer at once.
 */
export function heldStore(): { store: Store; inFind: Promise<void>; release(): void } {
  let release!: () => void;
  let entered!: () => void;
  const inFind = new Promise<void>((resolve) => (entered = resolve));
  const held = new Promise<void>((resolve) => (release = resolve));
  const store: Store = {
    find: async () => {
      entered();
      await held;
      return { data: [], count: 0 };
    },
    insert: async () => true,
    remove: async () => 0,
  };
  return { store, inFind, release };
}
