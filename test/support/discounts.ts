// Test set-up for the discount store: emptied through its repository, so the repository's in-memory copy of the
// store (refreshed on its own writes, or when the generation changes) sees it at once.
import type { Database } from "../../src/db/client.ts";
import type { DiscountRepository } from "../../src/discounts/repository.ts";

export async function clearDiscountStore(repository: DiscountRepository, database: Database): Promise<void> {
  await repository.deleteByIds((await repository.listAll()).map((discount) => discount.discountId));
  await database.query("delete from discount_cancels");
}
