// `sluice serve`: with DEPLOYMENT and/or DEPLOYMENT_FILE, the API on that deployment (validated, secrets from the
// environment); with neither, the local devnet and the API on it (what `npm start` runs).
import type { Command } from "commander";
import { adminTokenPath, writeAdminToken } from "../admin/token.ts";
import { startDevnetSluice } from "../app/devnet.ts";
import { buildSluice, type Sluice } from "../app/sluice.ts";
import { type Env, readEnv } from "../config/env.ts";
import { loadDeployment } from "../deployment/load.ts";
import { readDeploymentSecrets } from "../deployment/secrets.ts";
import { devnetBanner, devnetFacts } from "../devnet/banner.ts";
import { createLogger, type Logger } from "../logger.ts";
import { stopOnSignalsOrOrphaning } from "./lifetime.ts";

export function registerServeCommand(program: Command): void {
  program
    .command("serve")
    .description(
      "serve the API on DEPLOYMENT (mainnet|hoodi|sepolia) and/or DEPLOYMENT_FILE, with RPC_URLS, " +
        "PROTOCOL_SIGNER_KEY and the solvers' secrets from the environment; with neither, run the local devnet " +
        "and serve it (PORT, DATABASE_URL or DATA_DIR, PUBLIC_URL, LOG_LEVEL)",
    )
    .action(async () => {
      const env = readEnv();
      const logger = createLogger({ level: env.LOG_LEVEL });
      // Signal handlers go in before anything starts, so a SIGTERM during start-up is a clean shutdown too.
      const started =
        env.DEPLOYMENT || env.DEPLOYMENT_FILE ? serveDeployment(env, logger) : serveDevnet(env, logger);
      stopOnSignalsOrOrphaning(started, env, logger);
      await started;
    });
}

/**
 * The API on a configured deployment. An invalid deployment or a missing secret throws InvalidDeploymentError
 * (naming each field and the reason) before anything starts; the CLI prints it and exits non-zero.
 */
export async function serveDeployment(env: Env, logger: Logger): Promise<Sluice> {
  const deployment = loadDeployment({
    ...(env.DEPLOYMENT ? { network: env.DEPLOYMENT } : {}),
    ...(env.DEPLOYMENT_FILE ? { file: env.DEPLOYMENT_FILE } : {}),
  });
  const secrets = readDeploymentSecrets(deployment, process.env);
  // No faucet: a client calling a dev helper here learns why it is refused (403 DEV_ONLY).
  const sluice = await buildSluice({
    env,
    logger,
    deployment: { deployment, ...secrets },
    // On the embedded database the commands beside this server write through it (src/admin/running-server.ts).
    ...(env.DATABASE_URL
      ? {}
      : { admin: { token: writeAdminToken(adminTokenPath(env.DATA_DIR)), dataDir: env.DATA_DIR } }),
  });
  try {
    await sluice.start();
  } catch (error) {
    await sluice.stop().catch(() => {});
    throw error;
  }
  return sluice;
}

/**
 * The devnet and the API on it. Its facts go to the terminal as a banner, and to the log as one line when the log
 * is not a terminal (a file, a pipe, a log collector).
 */
export async function serveDevnet(env: Env, logger: Logger): Promise<Sluice> {
  const devnet = await startDevnetSluice({ env, logger });
  const facts = devnetFacts(devnet);
  if (process.stderr.isTTY) process.stderr.write(devnetBanner(facts));
  if (!process.stdout.isTTY) logger.info(facts, "devnet ready");
  return devnet.sluice;
}
