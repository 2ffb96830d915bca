// How a configuration file's validation problems are told to an operator: the field's path and the reason.
import type { z } from "zod";

export interface ConfigProblem {
  /** `solvers[1].id`, `inputTokens[0].address`, or `(root)`. */
  field: string;
  reason: string;
}

export function describeIssues(error: z.ZodError): ConfigProblem[] {
  return error.issues.map((issue) => ({
    field:
      issue.path
        .map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`))
        .join("")
        .replace(/^\./, "") || "(root)",
    reason:
      issue.code === "invalid_type" && issue.input === undefined ? "required but missing" : issue.message,
  }));
}
