// JSON parsing that keeps every number exactly as written. Partner APIs send points as JSON numbers far
// beyond 2^53, which `JSON.parse` would round to the nearest double; Node 20 has no reviver `context.source`.
// So number literals outside strings are quoted first, and the parsed value carries them as their text.

export class InvalidJsonError extends Error {
  override name = "InvalidJsonError";
}

const NUMBER_LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Parses JSON text; every number literal comes back as a string holding its source text (e.g.
 * `12345678901234567890123` → `"12345678901234567890123"`, `1.5e3` → `"1.5e3"`). Strings stay strings.
 */
export function parseJsonKeepingNumberText(text: string): unknown {
  let quoted = "";
  let copiedUpTo = 0;
  let index = 0;
  while (index < text.length) {
    const char = text.charCodeAt(index);
    if (char === 0x22 /* " */) {
      index = endOfString(text, index);
      continue;
    }
    if (char === 0x2d /* - */ || (char >= 0x30 && char <= 0x39)) {
      NUMBER_LITERAL.lastIndex = index;
      const match = NUMBER_LITERAL.exec(text);
      // Leave anything malformed to JSON.parse, which reports it.
      if (!match) break;
      quoted += `${text.slice(copiedUpTo, index)}"${match[0]}"`;
      index += match[0].length;
      copiedUpTo = index;
      continue;
    }
    index += 1;
  }
  quoted += text.slice(copiedUpTo);
  try {
    return JSON.parse(quoted);
  } catch (error) {
    throw new InvalidJsonError(error instanceof Error ? error.message : String(error));
  }
}

/** Index just past the string literal that opens at `start`. */
function endOfString(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const char = text.charCodeAt(index);
    if (char === 0x5c /* \ */) index += 2;
    else if (char === 0x22) return index + 1;
    else index += 1;
  }
  return index;
}
