// The venue a solver is checked against: the deployment a Sluice serves, read from its GET /deployment.
import { type PublicDeployment, PublicDeploymentSchema } from "../deployment/public.ts";

/** The venue cannot be read: named with what to do. */
export class VenueUnavailableError extends Error {
  override name = "VenueUnavailableError";
}

export async function readVenue(apiUrl: string): Promise<PublicDeployment> {
  const url = `${apiUrl.replace(/\/+$/, "")}/deployment`;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    throw new VenueUnavailableError(`the venue does not answer at ${url}: ${(error as Error).message}`);
  }
  if (!response.ok)
    throw new VenueUnavailableError(
      `GET ${url} answered ${response.status}: is --api a Sluice API base (…/api/v1) of a version with GET /deployment?`,
    );
  const parsed = PublicDeploymentSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new VenueUnavailableError(`GET ${url} is not a Sluice deployment`);
  return parsed.data;
}
