// GET /health: a liveness probe that only reports whether this process is draining.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "./context.ts";

const HealthSchema = z.object({ status: z.enum(["ok", "draining"]) }).meta({ id: "Health" });

export const healthRoutes: FastifyPluginAsyncZod<AppContext> = async (app, context) => {
  app.get(
    "/health",
    {
      schema: {
        tags: ["system"],
        summary: "Liveness probe",
        description: "200 `ok` while running, 503 `draining` once shutdown starts. Checks no dependency.",
        response: { 200: HealthSchema, 503: HealthSchema },
      },
    },
    async (_request, reply) => {
      if (context.lifecycle.draining) return reply.code(503).send({ status: "draining" });
      return { status: "ok" as const };
    },
  );
};
