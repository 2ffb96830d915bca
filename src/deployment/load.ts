// Loads a deployment: a shipped network file (only what is publicly known), merged with an operator's file,
// validated as a whole. Secrets never live in either file: they come from the environment.
import { existsSync, readFileSync } from "node:fs";
import { packagePath } from "../package-root.ts";
import { type ConfigProblem, describeIssues } from "../shared/config-issues.ts";
import { type Deployment, DeploymentSchema } from "./schema.ts";

export const SHIPPED_NETWORKS = ["mainnet", "hoodi", "sepolia"] as const;
export type ShippedNetwork = (typeof SHIPPED_NETWORKS)[number];

const DEPLOYMENTS_DIR = packagePath("deployments");

export class InvalidDeploymentError extends Error {
  override name = "InvalidDeploymentError";
  constructor(
    readonly source: string,
    readonly problems: ConfigProblem[],
  ) {
    super(
      `Invalid deployment (${source}):\n${problems.map((p) => `  - ${p.field}: ${p.reason}`).join("\n")}`,
    );
  }
}

export interface LoadDeploymentOptions {
  /** A shipped network whose public facts form the base. */
  network?: ShippedNetwork;
  /** The operator's file, merged over the network's (objects merge, arrays and scalars replace). */
  file?: string;
}

export function loadDeployment(options: LoadDeploymentOptions): Deployment {
  if (!options.network && !options.file) {
    throw new InvalidDeploymentError("(none)", [{ field: "deployment", reason: "name a network or a file" }]);
  }
  const sources: string[] = [];
  let merged: unknown = {};
  if (options.network) {
    const path = `${DEPLOYMENTS_DIR}/${options.network}.json`;
    merged = readJson(path);
    sources.push(path);
  }
  if (options.file) {
    merged = mergeDeep(merged, readJson(options.file));
    sources.push(options.file);
  }
  return parseDeployment(merged, sources.join(" + "));
}

export function parseDeployment(value: unknown, source: string): Deployment {
  const parsed = DeploymentSchema.safeParse(value);
  if (!parsed.success) throw new InvalidDeploymentError(source, describeIssues(parsed.error));
  return parsed.data;
}

function readJson(path: string): unknown {
  if (!existsSync(path))
    throw new InvalidDeploymentError(path, [{ field: "(file)", reason: "file not found" }]);
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new InvalidDeploymentError(path, [
      { field: "(file)", reason: `not valid JSON: ${(error as Error).message}` },
    ]);
  }
}

function mergeDeep(base: unknown, override: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(override)) return override;
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override))
    result[key] = key in result ? mergeDeep(result[key], value) : value;
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
