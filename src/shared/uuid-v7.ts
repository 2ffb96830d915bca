// Ids Sluice makes for what it stores by the thousand (a call's request id, a quote id, an order id): UUIDs of
// version 7 (RFC 9562), whose first 48 bits are the Unix time in milliseconds and whose other 74 bits are random.
// Version-4 ids land on a random page of every B-tree index that holds them, each page soon written to the WAL whole
// once more after every checkpoint; ids in time order are appended at the right edge of each index. They are still
// UUIDs to every reader and still unguessable (74 random bits); what they add is when they were made.
import { randomUUID } from "node:crypto";

/** A version-7 UUID made at `unixMs` (now by default), its random bits from Node's pooled CSPRNG. */
export function uuidV7(unixMs: number = Date.now()): string {
  // randomUUID's layout: xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx; from its 16th character on it is random (V: the
  // variant's bits), and the time and version take the place of what comes before.
  const random = randomUUID();
  const time = unixMs.toString(16).padStart(12, "0");
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}
