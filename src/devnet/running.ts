// The devnet running on a data directory, as a command beside it finds it (`sluice devnet add-solver`, `sluice solver
// check`): this run's URLs (endpoints.json), what was deployed (devnet.json) and the admin token the server wrote. The
// server owns the data directory (its embedded database allows one process), so a command changes the devnet only
// through the server's internal listener.
import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { internalListenerAnswers } from "../admin/running-server.ts";
import { adminTokenPath, readAdminToken } from "../admin/token.ts";
import { type DevnetFiles, devnetFiles } from "./devnet.ts";
import { type DevnetRecord, readDevnetRecord } from "./record.ts";

const EndpointsSchema = z.object({
  apiUrl: z.url(),
  internalApiUrl: z.url(),
  rpcUrl: z.url(),
  chainId: z.number().int(),
});

export type DevnetEndpoints = z.infer<typeof EndpointsSchema>;

export interface RunningDevnet {
  dataDir: string;
  files: DevnetFiles;
  endpoints: DevnetEndpoints;
  record: DevnetRecord;
  adminToken: string;
}

/** No devnet answers on the data directory: named with what to do. */
export class NoRunningDevnetError extends Error {
  override name = "NoRunningDevnetError";
  constructor(dataDir: string, reason: string) {
    super(
      `no devnet is running on DATA_DIR ${dataDir} (${reason}); start it with \`npm start\` (or \`sluice devnet\`) ` +
        "and run this again beside it, with the same DATA_DIR",
    );
  }
}

/** The devnet's files (endpoints, record), without asking whether it runs. */
export function devnetOnDisk(dataDir: string): Omit<RunningDevnet, "adminToken"> & { adminToken?: string } {
  const files = devnetFiles(dataDir);
  if (!existsSync(files.endpoints)) throw new NoRunningDevnetError(dataDir, `no ${files.endpoints}`);
  let endpoints: DevnetEndpoints;
  try {
    endpoints = EndpointsSchema.parse(JSON.parse(readFileSync(files.endpoints, "utf8")));
  } catch (error) {
    throw new NoRunningDevnetError(dataDir, `${files.endpoints} cannot be read: ${(error as Error).message}`);
  }
  const record = readDevnetRecord(files.record);
  if (!record) throw new NoRunningDevnetError(dataDir, `no readable ${files.record}`);
  const adminToken = readAdminToken(adminTokenPath(dataDir));
  return { dataDir, files, endpoints, record, ...(adminToken ? { adminToken } : {}) };
}

/** The devnet running on `dataDir`: its files, and its internal listener answering. */
export async function findRunningDevnet(dataDir: string): Promise<RunningDevnet> {
  const devnet = devnetOnDisk(dataDir);
  if (!(await internalListenerAnswers(devnet.endpoints.internalApiUrl)))
    throw new NoRunningDevnetError(dataDir, `nothing answers at ${devnet.endpoints.internalApiUrl}/health`);
  if (!devnet.adminToken)
    throw new NoRunningDevnetError(
      dataDir,
      `no admin token at ${adminTokenPath(dataDir)}: a server before this version`,
    );
  return { ...devnet, adminToken: devnet.adminToken };
}
