// Named failures of the points engine.
import { BaseError } from "../shared/errors.ts";

/** This process's engine lease is gone (its lock session ended, or another process took a newer epoch). */
export class PointsEngineLeaseLostError extends BaseError {
  override name = "PointsEngineLeaseLostError";
  constructor(
    readonly epoch: bigint,
    reason: string,
  ) {
    super(`lost the points engine lease (epoch ${epoch}): ${reason}`, {
      details: { epoch: epoch.toString() },
    });
  }
}

/** Another process runs the engine: a one-off command (backfill) does not run a second one beside it. */
export class PointsEngineBusyError extends BaseError {
  override name = "PointsEngineBusyError";
  constructor(holder: string | undefined) {
    super(
      `another process runs the points engine${holder ? ` (${holder})` : ""}: it is already computing the points`,
      { details: holder ? { holder } : {} },
    );
  }
}

/** The deployment configures no points engine (no `pointsEngine` section). */
export class PointsEngineNotConfiguredError extends BaseError {
  override name = "PointsEngineNotConfiguredError";
  constructor(source: string) {
    super(`the deployment (${source}) has no pointsEngine section: no points are computed here`);
  }
}

/** The stored engine state was computed for another points type or start block than the configuration's. */
export class PointsEngineConfigChangedError extends BaseError {
  override name = "PointsEngineConfigChangedError";
  constructor(what: string) {
    super(`the stored points engine state does not match the configuration: ${what}`);
  }
}
