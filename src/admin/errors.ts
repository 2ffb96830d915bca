// Named failures of the admin routes (src/admin/token.ts guards them).
import { BaseError } from "../shared/errors.ts";

/** A request to an admin route without this run's admin token. */
export class AdminAuthenticationError extends BaseError {
  override name = "AdminAuthenticationError";
  constructor() {
    super(
      "Admin routes need this run's admin token (Authorization: Bearer <token from DATA_DIR/admin-token>)",
    );
  }
}

/** `sluice points engine …` through a server whose deployment has no points engine. */
export class NoPointsEngineError extends BaseError {
  override name = "NoPointsEngineError";
  constructor() {
    super("this server runs no points engine: its deployment has no pointsEngine section");
  }
}
