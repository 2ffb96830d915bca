// GET /solver-logos/{filename}: content-addressed PNGs, immutable for a year.
import { z } from "zod";
import { UnknownSolverLogoError } from "../../solvers/errors.ts";
import type { SolverLogoStore } from "../../solvers/logos.ts";
import type { Handler } from "../route.ts";

export const solverLogoSchema = {
  tags: ["system"],
  summary: "Solver logo (PNG)",
  description:
    "A bundled solver logo. The file name carries the SHA-256 digest of its bytes; responses are immutable for one year.",
  // No params schema: any file name is valid input (an unknown one is a 404); the document lists it as a string.
  produces: ["image/png"],
  response: {
    200: z.any().meta({ type: "string", format: "binary" }),
    304: z.null(),
  },
  errors: [UnknownSolverLogoError],
  descriptions: {
    200: "The PNG, immutable for a year",
    304: "Not modified: the logo still has the ETag given in If-None-Match",
  },
};

export function solverLogo(logos: SolverLogoStore): Handler<typeof solverLogoSchema> {
  return async (request, reply) => {
    // Only names we generated ourselves resolve; anything else (including `..`) is simply unknown.
    const { filename } = request.params as { filename: string };
    const logo = logos.byFileName(filename);
    if (!logo) throw new UnknownSolverLogoError();
    reply.header("cache-control", "public, max-age=31536000, immutable");
    reply.header("etag", logo.etag);
    if (request.headers["if-none-match"] === logo.etag) return reply.code(304).send(null);
    reply.type("image/png");
    return reply.send(logo.bytes);
  };
}
