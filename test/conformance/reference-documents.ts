// The real system's OpenAPI documents (fixtures/reference/rfq-backend*.openapi.json) as the conformance tests read
// them: their operations, keyed the same way as Sluice's own document's, and an ajv validator of each operation's
// documented responses. Both documents are OpenAPI 3.1, whose schemas are JSON Schema 2020-12, so ajv's 2020 dialect
// reads them as they are; a 3.0 document (`nullable`, boolean `exclusiveMinimum`) would need converting first and is
// refused instead of being validated loosely.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS: under NodeNext its default export is the module object's `default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export const REFERENCE_DIR = fileURLToPath(new URL("../../fixtures/reference/", import.meta.url));
export const PUBLIC_REFERENCE = `${REFERENCE_DIR}rfq-backend.openapi.json`;
export const INTERNAL_REFERENCE = `${REFERENCE_DIR}rfq-backend-internal.openapi.json`;

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"] as const;

interface MediaTypeObject {
  schema?: unknown;
}
interface ResponseObject {
  content?: Record<string, MediaTypeObject>;
}
interface OperationObject {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: unknown }>;
  requestBody?: { content?: Record<string, MediaTypeObject> };
  responses?: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  servers?: Array<{ url: string }>;
  paths: Record<string, Partial<Record<(typeof METHODS)[number], OperationObject>>>;
  components?: { schemas?: Record<string, unknown> };
}

export function readDocument(path: string): OpenApiDocument {
  return JSON.parse(readFileSync(path, "utf8")) as OpenApiDocument;
}

/**
 * `POST /api/v1/quote`: the method and the full path (the first server's path prefixed, as Sluice's document states
 * its paths relative to `servers[0].url`), path parameters as `{}` so that differently named ones still match.
 */
export type OperationKey = string;

export function operationKey(method: string, fullPath: string): OperationKey {
  return `${method.toUpperCase()} ${fullPath.replace(/\{[^}]+\}/g, "{}")}`;
}

/** Every operation of `document`, by key. */
export function operations(document: OpenApiDocument): Map<OperationKey, OperationObject> {
  const base = new URL(document.servers?.[0]?.url ?? "/", "http://base.invalid").pathname.replace(/\/$/, "");
  const found = new Map<OperationKey, OperationObject>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) found.set(operationKey(method, `${base}${path}`), operation);
    }
  }
  return found;
}

/** What a response is judged against: the documented status (or `default`) and the schema of its media type. */
export interface DocumentedResponse {
  /** `"404"`, or `"default"` when the status itself is not documented. */
  documentedAs: string;
  mediaType: string;
  /** Undefined for a media type that is not JSON (a PNG): checked by its content type only. */
  validate: ValidateFunction | undefined;
}

export interface ResponseVerdict {
  /** Undefined when the reference documents neither this status nor a `default` for the operation. */
  documented: DocumentedResponse | undefined;
  /** Schema violations (empty when it matches, or when nothing is documented). */
  errors: ErrorObject[];
  /** The response's content type differs from every media type the reference documents for it. */
  wrongMediaType?: string;
}

/** An ajv validator of one reference document's responses. */
export class ReferenceValidator {
  readonly document: OpenApiDocument;
  readonly operations: Map<OperationKey, OperationObject>;
  readonly #ajv: Ajv2020;
  readonly #id: string;
  readonly #compiled = new Map<string, DocumentedResponse | undefined>();

  constructor(document: OpenApiDocument, id: string) {
    if (!/^3\.1\./.test(document.openapi)) {
      throw new Error(
        `${document.info.title} is OpenAPI ${document.openapi}: only 3.1 schemas are JSON Schema 2020-12 as they are`,
      );
    }
    this.document = document;
    this.operations = operations(document);
    this.#id = `urn:reference:${id}`;
    this.#ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(this.#ajv);
    this.#ajv.addSchema({
      $id: this.#id,
      $defs: this.#resolvable(document.components?.schemas ?? {}),
    });
  }

  /** Judges one real response of operation `key`. */
  check(key: OperationKey, status: number, contentType: string, body: unknown): ResponseVerdict {
    const documented = this.documented(key, status, contentType);
    if (!documented) return { documented: undefined, errors: [] };
    if ("wrongMediaType" in documented) return { documented: undefined, errors: [], ...documented };
    if (!documented.validate || documented.validate(body)) return { documented, errors: [] };
    return { documented, errors: [...(documented.validate.errors ?? [])] };
  }

  /**
   * Errors of a query parameter's value against the schema the reference gives it (an integer parameter is read as
   * the number its text spells, as a server would); an unknown parameter is an error too.
   */
  parameterErrors(key: OperationKey, name: string, value: string): string[] {
    const parameter = this.#operation(key).parameters?.find((p) => p.in === "query" && p.name === name);
    if (!parameter) return [`${key} has no query parameter ${name}`];
    const schema = (parameter.schema ?? {}) as { type?: unknown };
    const typed = schema.type === "integer" && /^-?\d+$/.test(value) ? Number(value) : value;
    const validate = this.#ajv.compile(this.#resolvable(schema) as object);
    if (validate(typed)) return [];
    return (validate.errors ?? []).map((error) => `${name}=${value} ${error.message}`);
  }

  /** The statuses the reference documents for an operation (`default` included when present). */
  statuses(key: OperationKey): string[] {
    return Object.keys(this.#operation(key).responses ?? {});
  }

  documented(
    key: OperationKey,
    status: number,
    contentType: string,
  ): DocumentedResponse | { wrongMediaType: string } | undefined {
    const responses = this.#operation(key).responses ?? {};
    const documentedAs =
      String(status) in responses ? String(status) : "default" in responses ? "default" : null;
    if (!documentedAs) return undefined;
    const content = responses[documentedAs]?.content ?? {};
    const mediaType = Object.keys(content).find((type) => contentType.split(";")[0]!.trim() === type);
    if (!mediaType)
      return { wrongMediaType: `${contentType} (documented: ${Object.keys(content).join(", ")})` };
    const cacheKey = `${key} ${documentedAs} ${mediaType}`;
    if (!this.#compiled.has(cacheKey)) {
      const schema = content[mediaType]?.schema;
      const json = mediaType === "application/json" || mediaType.endsWith("+json");
      this.#compiled.set(cacheKey, {
        documentedAs,
        mediaType,
        validate: json && schema ? this.#ajv.compile(this.#resolvable(schema) as object) : undefined,
      });
    }
    return this.#compiled.get(cacheKey);
  }

  #operation(key: OperationKey): OperationObject {
    const operation = this.operations.get(key);
    if (!operation) throw new Error(`${key} is not in ${this.document.info.title}`);
    return operation;
  }

  /**
   * A copy of a schema that ajv can compile from anywhere: component references point into the registered `$defs`,
   * and the `$schema` the transcription repeats inside components (allowed only at a schema's root) is dropped.
   */
  #resolvable(schema: unknown): unknown {
    if (Array.isArray(schema)) return schema.map((item) => this.#resolvable(item));
    if (schema === null || typeof schema !== "object") return schema;
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === "$schema") continue;
      if (key === "$ref" && typeof value === "string" && value.startsWith("#/components/schemas/")) {
        copy[key] = `${this.#id}#/$defs/${value.slice("#/components/schemas/".length)}`;
      } else {
        copy[key] = this.#resolvable(value);
      }
    }
    return copy;
  }
}

/** One ajv error, readably: `/quotes/0/solver must have required property 'filler'`. */
export function describeError(error: ErrorObject): string {
  return `${error.instancePath || "(body)"} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`;
}
