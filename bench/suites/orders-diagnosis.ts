// Where the time of the streamed filled list goes, measured in the database itself: the server fetches the list
// a page at a time (src/orders/page-query.ts `pageSql`), so its speed is the page query's. This runs the second
// page of `orderStatus=filled` exactly as the server builds it under EXPLAIN ANALYZE, and the same query with its
// ORDER BY spelled with the null ordering of the orders indexes (drizzle's `.desc()` creates them
// `DESC NULLS LAST`, while a plain `ORDER BY … DESC` means NULLS FIRST, which such an index cannot return in
// order). The difference is what that server-side change would buy.
import type { Database } from "../../src/db/client.ts";
import { pageSql } from "../../src/orders/page-query.ts";
import { OrdersQuerySchema } from "../../src/orders/schemas.ts";

export interface PagePlan {
  executionMs: number;
  /** Plan node types from the top, e.g. Limit > Gather Merge > Sort > … */
  nodes: string[];
  sorts: boolean;
}

export interface PageDiagnosis {
  pageSize: number;
  served: PagePlan;
  /** Undefined when the served query already orders with NULLS LAST (nothing to compare). */
  nullsLast: PagePlan | undefined;
}

const PAGE_SIZE = 1000;
const SERVED_ORDER = /order by (\w+) desc, order_id desc/;

export async function diagnoseFilledPage(database: Database): Promise<PageDiagnosis> {
  const query = OrdersQuerySchema.parse({ orderStatus: "filled" });
  const first = pageSql(query, undefined, PAGE_SIZE);
  const rows = await database.query<{ sort_value: string; order_id: string }>(first.text, first.params);
  const last = rows.at(-1);
  const second = pageSql(query, last ? { k: last.sort_value, id: last.order_id } : undefined, PAGE_SIZE);
  const served = await explain(database, second.text, second.params);
  const reordered = second.text.replace(
    SERVED_ORDER,
    "order by $1 desc nulls last, order_id desc nulls last",
  );
  const nullsLast = reordered === second.text ? undefined : await explain(database, reordered, second.params);
  return { pageSize: PAGE_SIZE, served, nullsLast };
}

interface PlanNode {
  "Node Type": string;
  Plans?: PlanNode[];
}

async function explain(database: Database, text: string, params: unknown[]): Promise<PagePlan> {
  // Once to warm the cache, once measured.
  await database.query(text, params);
  const [row] = await database.query<{ "QUERY PLAN": Array<{ Plan: PlanNode; "Execution Time": number }> }>(
    `explain (analyze, format json) ${text}`,
    params,
  );
  const result = row!["QUERY PLAN"][0]!;
  const nodes: string[] = [];
  for (let node: PlanNode | undefined = result.Plan; node; node = node.Plans?.[0])
    nodes.push(node["Node Type"]);
  return { executionMs: result["Execution Time"], nodes, sorts: nodes.includes("Sort") };
}
