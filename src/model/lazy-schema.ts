/** Schemas built on first use: a stand-in that builds the real zod schema the first time anything touches it. */

/**
 * `build()`'s schema, built the first time the stand-in is read (a parse, `.shape`, `.optional()`, zod or
 * `z.toJSONSchema` walking it), then used for every read after: the same validation, the same errors, the same
 * JSON Schema, and the same type (`z.infer`, `z.input` see the schema `build` returns).
 *
 * Why: a process evaluates every module its entry imports, and building zod schemas is most of that work. The
 * session hook (a process per agent session) imports the whole ledger but validates only a context call and the
 * policy file; the schemas of writes, searches and plans cost it ~5 ms of CPU to build and were never used.
 *
 * Only for a schema whose object itself no registry holds (no `.describe()` or `.meta()` last in `build`):
 * zod's metadata is keyed by the object, and the stand-in is another object.
 *
 * @example export const searchInputSchema = lazySchema(() => z.object({ query: z.string() }).strict());
 */
export function lazySchema<S extends object>(build: () => S): S {
  let real: S | undefined;
  const schema = (): S => {
    real ??= build();
    return real;
  };
  // Methods run on the real schema, so nothing inside zod ever sees the stand-in as `this`; one bound copy per
  // method keeps `a.parse === a.parse`.
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy({} as S, {
    get(_target, key) {
      const value: unknown = Reflect.get(schema(), key);
      if (typeof value !== 'function') return value;
      let method = bound.get(key);
      if (method === undefined) {
        method = (value as (...args: unknown[]) => unknown).bind(schema());
        bound.set(key, method);
      }
      return method;
    },
    has: (_target, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    // Reported configurable: the stand-in's own (empty) target must not be contradicted by a fixed property.
    getOwnPropertyDescriptor(_target, key) {
      const found = Reflect.getOwnPropertyDescriptor(schema(), key);
      return found === undefined ? undefined : { ...found, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
    set: (_target, key, value) => Reflect.set(schema(), key, value),
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}
