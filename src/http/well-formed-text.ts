// Text PostgreSQL cannot store is refused once, for every route, where requests are validated: a string (or an
// object key) anywhere in a body, a query, path parameters or headers that is not well-formed Unicode (a lone UTF-16
// surrogate, which JSON's `\ud800` escapes can carry) or holds a NUL character. PostgreSQL refuses both in text
// and jsonb, so such a value reached a 500 where it was stored before the answer, or a 200 whose record was
// silently never stored. The route's schema is parsed only once the text is clean, so no schema needs to say it.
import type { FastifySchemaCompiler } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import { z } from "zod";
import type { $ZodType } from "zod/v4/core";
import { bodyAcceptorOf } from "./accepted-bodies.ts";

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// Any NUL or surrogate at all: almost no request has one, and this test is cheaper than the one above.
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is one of the characters it looks for.
const SUSPECT = /[\u0000\ud800-\udfff]/;

function unstorable(text: string): boolean {
  return SUSPECT.test(text) && (text.includes("\u0000") || LONE_SURROGATE.test(text));
}

/** Nesting walked by recursion; deeper values go to the explicit stack of unstorableTextAt. */
const MAX_RECURSION = 64;

/** Whether `value` holds a string or key PostgreSQL cannot store, allocating nothing on the way (the usual case). */
function holdsUnstorable(value: unknown, depth: number): boolean {
  if (typeof value === "string") return unstorable(value);
  if (value === null || typeof value !== "object") return false;
  if (depth >= MAX_RECURSION) return unstorableTextAt(value) !== undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++)
      if (holdsUnstorable(value[index], depth + 1)) return true;
    return false;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (unstorable(key) || holdsUnstorable((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}
const MESSAGE = "must be well-formed Unicode text without NUL characters";

/** Where a value sits: its key in its parent, and the parent's place (none for the root). */
interface Place {
  key: string | number;
  parent: Place | undefined;
}

function pathOf(place: Place | undefined): Array<string | number> {
  const path: Array<string | number> = [];
  for (let at = place; at; at = at.parent) path.unshift(at.key);
  return path;
}

/** The path of the first string or key in `value` PostgreSQL cannot store; undefined when there is none. */
export function unstorableTextAt(value: unknown): Array<string | number> | undefined {
  // Depth-first with an explicit stack (a body may nest deeper than the call stack allows), each entry linked to
  // its parent's place: building every path as it goes would cost the square of a deep body's depth.
  const stack: Array<{ value: unknown; place: Place | undefined }> = [{ value, place: undefined }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value: current, place } = next;
    if (typeof current === "string") {
      if (unstorable(current)) return pathOf(place);
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--)
        stack.push({ value: current[index], place: { key: index, parent: place } });
    } else if (current !== null && typeof current === "object") {
      for (const [key, item] of Object.entries(current)) {
        if (unstorable(key)) return pathOf({ key, parent: place });
        stack.push({ value: item, place: { key, parent: place } });
      }
    }
  }
  return undefined;
}

const cleanText = z.unknown().superRefine((value, context) => {
  const path = unstorableTextAt(value);
  if (path) context.addIssue({ code: "custom", path, message: MESSAGE, continue: false });
});

/**
 * fastify-type-provider-zod's validator, behind the check for unstorable text (its issue is a validation issue). The
 * check runs first without allocating; only a value that fails it goes through the schema that names the path. A
 * body whose schema has an acceptor (accepted-bodies.ts) is parsed by the schema only when the acceptor declines it.
 */
export const wellFormedValidatorCompiler: FastifySchemaCompiler<$ZodType> = (route) => {
  const validate = validatorCompiler(route);
  const refuse = validatorCompiler({ ...route, schema: cleanText.pipe(route.schema as z.ZodType) });
  const accept = route.httpPart === "body" ? bodyAcceptorOf(route.schema) : undefined;
  if (accept)
    return (data: unknown) => {
      if (holdsUnstorable(data, 0)) return refuse(data);
      const value = accept(data);
      return value === undefined ? validate(data) : { value };
    };
  return (data: unknown) => (holdsUnstorable(data, 0) ? refuse(data) : validate(data));
};
