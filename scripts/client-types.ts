// The client's wire types (packages/client/src/openapi.gen.ts) from an OpenAPI document, by openapi-typescript. One function
// for both the generator (npm run client:types) and the drift test, so they cannot disagree on the output.
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

export const CLIENT_TYPES_FILE = fileURLToPath(
  new URL("../packages/client/src/openapi.gen.ts", import.meta.url),
);

const HEADER = `// GENERATED from Sluice's own GET /api/v1/openapi.json by openapi-typescript: do not edit by hand.
// Regenerate with \`npm run client:types\` (starts a devnet in a temporary directory, reads the document it serves and
// rewrites this file). test/client/client.test.ts fails when this file and the running server's document drift.
`;

/** The generated file's whole text for `document` (an OpenAPI 3.1 document as JSON). */
export async function renderClientTypes(document: unknown): Promise<string> {
  // A field with a default is optional where the document says so (`required`): a request may leave it out.
  const ast = await openapiTS(inNameOrder(document) as Parameters<typeof openapiTS>[0], {
    defaultNonNullable: false,
  });
  return `${HEADER}${astToString(ast)}`;
}

/**
 * The document with its paths and component schemas in name order: their order in the served document follows the
 * order modules register routes and schemas, which says nothing about the types, so it must not count as drift.
 */
function inNameOrder(document: unknown): unknown {
  const { paths, components, ...rest } = document as {
    paths?: Record<string, unknown>;
    components?: { schemas?: Record<string, unknown> };
  };
  const sorted = (record: Record<string, unknown> | undefined) =>
    record && Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    ...rest,
    ...(paths ? { paths: sorted(paths) } : {}),
    ...(components ? { components: { ...components, schemas: sorted(components.schemas) } } : {}),
  };
}
