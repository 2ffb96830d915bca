// Named failures of the dev helpers (GET/POST /dev/faucet, POST /dev/fund).
import { BaseError } from "../shared/errors.ts";

const DEV_ONLY_MESSAGES = {
  not_local: "Development helpers are only available on a local deployment",
  no_faucet: "This local deployment has no faucet",
} as const;

/** A dev helper asked of a deployment that does not serve them: not local, or local without a faucet. */
export class DevOnlyError extends BaseError {
  override name = "DevOnlyError";
  constructor(readonly reason: keyof typeof DEV_ONLY_MESSAGES) {
    super(DEV_ONLY_MESSAGES[reason]);
  }
}

/** A faucet transfer that reverted. */
export class FaucetError extends BaseError {
  override name = "FaucetError";
}

/** The faucet bundle lacks what POST /dev/fund sends: ETH or the deployment's input token. */
export class FaucetBundleIncompleteError extends BaseError {
  override name = "FaucetBundleIncompleteError";
  constructor() {
    super("The faucet bundle has no ETH or no input token");
  }
}

/** The devnet's node did not answer a relayed JSON-RPC call (POST /dev/rpc). */
export class DevRpcUnavailableError extends BaseError {
  override name = "DevRpcUnavailableError";
  constructor(cause: unknown) {
    super("The devnet's node did not answer", { cause });
  }
}
