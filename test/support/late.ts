// A value that a `beforeAll` hook creates, handed out before the hook runs: helpers such as useTestChain register
// the hook and return at once, so the suite can name the value at the top of the file and read it in its tests.

/**
 * A stand-in for `current()`: every property read goes to the value as it is then (methods bound to it). Reading
 * it before the value exists — outside tests and hooks — throws `notReady` instead of failing on `undefined`.
 */
export function lateProxy<T extends object>(current: () => T | undefined, notReady: string): T {
  return new Proxy({} as T, {
    get(_target, property) {
      const value = current();
      if (value === undefined) throw new Error(notReady);
      const field = Reflect.get(value, property, value);
      return typeof field === "function" ? field.bind(value) : field;
    },
  });
}
