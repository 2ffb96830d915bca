// Every endpoint Sluice serves, in one table: method and path → handler → the service it calls. Public routes are
// under /api/v1 and in the OpenAPI document; internal ones (internal solvers only) under /api-internal/v1, never
// documented. The root serves each listener's routes on its own server (HOST/PORT, INTERNAL_HOST/INTERNAL_PORT). Handlers (./handlers) receive the services the composition root
// (src/app) built; they construct nothing.
import type { AdminOperations } from "../admin/operations.ts";
import type { AdminGuard } from "../admin/token.ts";
import type { AuctionResults } from "../auctions/service.ts";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import type { DiscountService } from "../discounts/service.ts";
import type { SolverDiscounts } from "../discounts/solver-discounts.ts";
import type { QuoteAdmission } from "../limits/quote-admission.ts";
import type { LiquidityService } from "../liquidity/service.ts";
import type { Market } from "../market/market.ts";
import type { CancelService } from "../orders/cancel-service.ts";
import type { OpenOrdersCache } from "../orders/open-orders-cache.ts";
import type { OrderService } from "../orders/order-service.ts";
import type { PointsService } from "../points/service.ts";
import type { ReadinessChecks } from "../readiness/checks.ts";
import type { RegistryResponses } from "../registry/responses.ts";
import type { ScorecardService } from "../scorecards/service.ts";
import type { SolverLogoStore } from "../solvers/logos.ts";
import type { SolverRegistry } from "../solvers/registry.ts";
import type { QuoteService } from "../swap/quote-service.ts";
import type { TrailService } from "../trail/trail.ts";
import * as adminData from "./handlers/admin-data.ts";
import * as adminKeys from "./handlers/admin-keys.ts";
import * as adminSolvers from "./handlers/admin-solvers.ts";
import * as auctions from "./handlers/auctions.ts";
import * as cancel from "./handlers/cancel.ts";
import * as demoPage from "./handlers/demo-page.ts";
import * as deploymentFacts from "./handlers/deployment.ts";
import * as dev from "./handlers/dev.ts";
import * as discounts from "./handlers/discounts.ts";
import * as liquidity from "./handlers/liquidity.ts";
import * as orderStream from "./handlers/order-stream.ts";
import * as orders from "./handlers/orders.ts";
import * as points from "./handlers/points.ts";
import * as registry from "./handlers/registry.ts";
import * as logos from "./handlers/solver-logos.ts";
import * as solvers from "./handlers/solvers.ts";
import * as swap from "./handlers/swap.ts";
import * as system from "./handlers/system.ts";
import * as trail from "./handlers/trail.ts";
import type { Lifecycle } from "./lifecycle.ts";
import type { HttpMetrics } from "./metrics.ts";
import { API_PREFIX, type RouteEntry, route } from "./route.ts";

/** What the routes of every Sluice call: the system endpoints and the partner API. */
export interface PartnerServices {
  lifecycle: Lifecycle;
  /** GET /ready: the checks the composition root registered (src/readiness). */
  readiness: ReadinessChecks;
  /** The injected clock (the health probe's `timestamp`). */
  clock: Clock;
  metrics: HttpMetrics;
  /** The internal listener's /metrics URL once it listens, for the public port's pointer to it. */
  metricsUrl: () => string | undefined;
  registry: RegistryResponses;
  points: PointsService;
  solverLogos: SolverLogoStore;
  /** The admin routes on the internal listener, when this server has an admin token (an embedded database's). */
  admin?: AdminServices;
}

/** What the admin routes call: the operators' writes, and the devnet's solver registry where there is one. */
export interface AdminServices {
  guard: AdminGuard;
  operations: AdminOperations;
  /** The API keys (`sluice keys` beside a server on the embedded database). */
  keys: adminKeys.AdminKeyServices;
  solvers?: SolverRegistry;
}

/** What the routes of a deployment call: its market, quotes, orders, liquidity, discounts and dev helpers. */
export interface DeploymentServices {
  market: Market;
  quotes: QuoteService;
  /** /quote's load shedding: rounds in flight and event-loop lag. */
  quoteAdmission: QuoteAdmission;
  orders: OrderService;
  /** GET /auctions/{requestId}: stored rounds, public once their quotes can no longer be taken. */
  auctions: AuctionResults;
  /** POST /cancel: the order's invalidateNonce transaction. */
  cancel: CancelService;
  database: Database;
  openOrders: OpenOrdersCache;
  /** GET /orders/stream: the replica's order streams, their limits, and the solvers whose streams they check. */
  orderStreams: orderStream.OrderStreamServices;
  liquidity: LiquidityService;
  /** GET /solvers: the solvers' cooldowns and scorecards. */
  scorecards: ScorecardService;
  discounts: DiscountService;
  solverDiscounts: SolverDiscounts;
  dev: dev.DevHelpers;
  /** `PUBLIC_URL`: the base of the URLs a quote hands out; by default each request's own origin. */
  publicUrl: string | undefined;
  /** `INTERNAL_API_AUTH`: the internal discount API asks solver credentials, or none (`network`). */
  internalAuth: "solver-secret" | "network";
  /** GET /trail (internal listener): one swap's recorded steps. */
  trails: TrailService;
}

/** The interactive docs page (Swagger UI over the document). */
export const DOCS_PATH = `${API_PREFIX}/docs`;

export function sluiceRoutes(partner: PartnerServices, deployment?: DeploymentServices): RouteEntry[] {
  // biome-ignore format: a table, one route per line
  return [
    // Prometheus scrapes the internal port's root (INTERNAL_HOST/INTERNAL_PORT), not the public one.
    route({ method: "GET", url: "/metrics", listener: "internal", atRoot: true, schema: system.hiddenSchema, handler: system.metrics(partner.metrics) }),
    // A scraper pointed at the public port is told where the metrics are, rather than a bare 404.
    route({ method: "GET", url: "/metrics", listener: "public", atRoot: true, schema: system.hiddenSchema, handler: system.metricsElsewhere(partner.metricsUrl) }),
    route({ method: "GET", url: "/openapi.json", listener: "public", schema: system.hiddenSchema, handler: system.openApiDocument }),
    route({ method: "GET", url: "/health", listener: "public", schema: system.healthSchema, handler: system.health(partner.lifecycle, partner.clock) }),
    // A Sluice addition, not in the real internal document: the internal listener's own probe, without credentials.
    route({ method: "GET", url: "/health", listener: "internal", schema: system.healthSchema, handler: system.health(partner.lifecycle, partner.clock) }),
    // Readiness (src/readiness): the same checks on both listeners, for a load balancer and for Kubernetes beside it.
    route({ method: "GET", url: "/ready", listener: "public", schema: system.readySchema, handler: system.ready(partner.readiness, partner.clock) }),
    route({ method: "GET", url: "/ready", listener: "internal", schema: system.readySchema, handler: system.ready(partner.readiness, partner.clock) }),

    route({ method: "GET", url: "/entities/networks", listener: "public", limit: "read", schema: registry.networksSchema, handler: registry.networks(partner.registry) }),
    route({ method: "GET", url: "/entities/vaults", listener: "public", limit: "read", schema: registry.vaultsSchema, handler: registry.vaults(partner.registry) }),
    route({ method: "GET", url: "/entities/operators", listener: "public", limit: "read", schema: registry.operatorsSchema, handler: registry.operators(partner.registry) }),
    route({ method: "GET", url: "/entities/curators", listener: "public", limit: "read", schema: registry.curatorsSchema, handler: registry.curators(partner.registry) }),

    route({ method: "GET", url: "/points/receiver/:address/current", listener: "public", limit: "read", schema: points.receiverCurrentSchema, handler: points.receiverCurrent(partner.points) }),
    route({ method: "GET", url: "/points/vault/:address/current", listener: "public", limit: "read", schema: points.vaultCurrentSchema, handler: points.vaultCurrent(partner.points) }),
    route({ method: "GET", url: "/points/vault/:address/:blockNumber", listener: "public", limit: "read", schema: points.vaultAtBlockSchema, handler: points.vaultAtBlock(partner.points) }),
    route({ method: "GET", url: "/points/total/current", listener: "public", limit: "read", schema: points.totalCurrentSchema, handler: points.totalCurrent(partner.points) }),
    route({ method: "GET", url: "/points/total/:blockNumber", listener: "public", limit: "read", schema: points.totalAtBlockSchema, handler: points.totalAtBlock(partner.points) }),
    route({ method: "GET", url: "/points/receiver/:address/:blockNumber", listener: "public", limit: "read", schema: points.receiverAtBlockSchema, handler: points.receiverAtBlock }),

    route({ method: "GET", url: "/solver-logos/:filename", listener: "public", limit: "read", schema: logos.solverLogoSchema, handler: logos.solverLogo(partner.solverLogos) }),

    ...(partner.admin ? adminRoutes(partner.admin) : []),

    ...(deployment ? deploymentRoutes(deployment) : []),

    system.docs(DOCS_PATH, `${API_PREFIX}/openapi.json`),
    // Where a newcomer typing the server's address lands: the docs page.
    route({ method: "GET", url: "/", listener: "public", atRoot: true, schema: system.redirectSchema, handler: system.redirectTo(DOCS_PATH) }),
    route({ method: "GET", url: "", listener: "public", schema: system.redirectSchema, handler: system.redirectTo(DOCS_PATH) }),
  ];
}

function deploymentRoutes(services: DeploymentServices): RouteEntry[] {
  // In `network` mode the internal listener's network is the guard: no credentials are asked.
  const internalSolverOnly =
    services.internalAuth === "network" ? undefined : discounts.internalSolverOnly(services.market.solvers);
  const devOnly = dev.devOnly(services.dev);
  // biome-ignore format: a table, one route per line
  return [
    route({ method: "POST", url: "/check_approval", listener: "public", limit: "read", schema: swap.checkApprovalSchema, handler: swap.checkApprovalHandler(services.market) }),
    route({ method: "POST", url: "/quote", listener: "public", limit: "quote", schema: swap.quoteSchema, handler: swap.quote(services.quotes, services.publicUrl, services.quoteAdmission), serializerCompiler: swap.quoteSerializerCompiler }),
    route({ method: "POST", url: "/order", listener: "public", limit: "quote", schema: swap.orderSchema, handler: swap.order(services.orders) }),
    route({ method: "GET", url: "/orders", listener: "public", limit: "read", schema: orders.ordersSchema, handler: orders.orders(services.database, services.openOrders, services.market.solvers) }),
    route({ method: "GET", url: "/orders/stream", listener: "public", limit: "stream", schema: orderStream.orderStreamSchema, handler: orderStream.orderStream(services.orderStreams) }),
    route({ method: "GET", url: "/auctions/:requestId", listener: "public", limit: "read", schema: auctions.auctionSchema, handler: auctions.auction(services.auctions) }),
    route({ method: "POST", url: "/cancel", listener: "public", limit: "read", schema: cancel.cancelSchema, handler: cancel.cancel(services.cancel) }),

    route({ method: "POST", url: "/liquidity", listener: "public", limit: "read", schema: liquidity.liquiditySchema, handler: liquidity.liquidity(services.liquidity) }),
    route({ method: "POST", url: "/liquidity-batch", listener: "public", limit: "read", schema: liquidity.liquidityBatchSchema, handler: liquidity.liquidityBatch(services.liquidity) }),

    route({ method: "GET", url: "/solvers", listener: "public", limit: "read", schema: solvers.solversSchema, handler: solvers.solvers(services.scorecards, services.publicUrl) }),
    route({ method: "GET", url: "/deployment", listener: "public", limit: "read", schema: deploymentFacts.deploymentSchema, handler: deploymentFacts.deployment(services.market) }),
    route({ method: "GET", url: "/solvers/:id", listener: "public", limit: "read", schema: solvers.solverSchema, handler: solvers.solver(services.scorecards, services.publicUrl) }),

    route({ method: "POST", url: "/discount", listener: "public", limit: "read", schema: discounts.discountSchema, handler: discounts.discount(services.discounts) }),
    route({ method: "GET", url: "/discounts", listener: "internal", ...(internalSolverOnly ? { onRequest: internalSolverOnly } : {}), schema: discounts.liveDiscountsSchema, handler: discounts.liveDiscounts(services.solverDiscounts) }),
    route({ method: "POST", url: "/discounts", listener: "internal", ...(internalSolverOnly ? { onRequest: internalSolverOnly } : {}), schema: discounts.resolveDiscountSchema, handler: discounts.resolveDiscount(services.solverDiscounts) }),

    // Support's view of one swap; the internal listener's network guards it, as it guards /metrics.
    route({ method: "GET", url: "/trail", listener: "internal", schema: trail.trailSchema, handler: trail.trail(services.trails) }),

    route({ method: "GET", url: "/dev/faucet", listener: "public", onRequest: devOnly, schema: dev.faucetBundleSchema, handler: dev.faucetBundle(services.dev) }),
    route({ method: "POST", url: "/dev/faucet", listener: "public", onRequest: devOnly, schema: dev.faucetSchema, handler: dev.faucet(services.dev) }),
    route({ method: "POST", url: "/dev/fund", listener: "public", onRequest: devOnly, schema: dev.fundSchema, handler: dev.fundWallet(services.dev) }),
    route({ method: "POST", url: "/dev/rpc", listener: "public", onRequest: devOnly, schema: demoPage.rpcSchema, handler: demoPage.rpc(services.dev) }),
    // The swap demo page, at the root where a person types it (docs/wallets.md "Demo page").
    route({ method: "GET", url: "/demo", listener: "public", atRoot: true, onRequest: devOnly, schema: demoPage.pageSchema, handler: demoPage.page(services.dev) }),
    route({ method: "GET", url: "/demo/page.js", listener: "public", atRoot: true, onRequest: devOnly, schema: demoPage.pageSchema, handler: demoPage.script(services.dev) }),
  ];
}

/** The admin routes (internal listener), each behind the admin token whatever INTERNAL_API_AUTH says. */
function adminRoutes(admin: AdminServices): RouteEntry[] {
  const adminOnly = adminSolvers.adminOnly(admin.guard);
  const { operations, solvers } = admin;
  // biome-ignore format: a table, one route per line
  return [
    route({ method: "POST", url: "/admin/points/import", listener: "internal", onRequest: adminOnly, schema: adminData.importPointsSchema, handler: adminData.importPoints(operations) }),
    route({ method: "POST", url: "/admin/points/sync", listener: "internal", onRequest: adminOnly, schema: adminData.syncPointsSchema, handler: adminData.syncPoints(operations) }),
    route({ method: "POST", url: "/admin/registry/import", listener: "internal", onRequest: adminOnly, bodyLimit: adminData.REGISTRY_IMPORT_BODY_LIMIT, schema: adminData.importRegistrySchema, handler: adminData.importRegistry(operations) }),
    route({ method: "POST", url: "/admin/cooldowns", listener: "internal", onRequest: adminOnly, schema: adminData.overrideCooldownSchema, handler: adminData.overrideCooldown(operations) }),
    route({ method: "GET", url: "/admin/points-engine/status", listener: "internal", onRequest: adminOnly, schema: adminData.pointsEngineStatusSchema, handler: adminData.pointsEngineStatus(operations) }),
    route({ method: "POST", url: "/admin/points-engine/backfill", listener: "internal", onRequest: adminOnly, schema: adminData.pointsEngineBackfillSchema, handler: adminData.pointsEngineBackfill(operations) }),
    ...(solvers ? [
      route({ method: "GET", url: "/admin/solvers", listener: "internal", onRequest: adminOnly, schema: adminSolvers.listSolversSchema, handler: adminSolvers.listSolvers(solvers) }),
      route({ method: "POST", url: "/admin/solvers", listener: "internal", onRequest: adminOnly, schema: adminSolvers.addSolverSchema, handler: adminSolvers.addSolver(solvers) }),
      route({ method: "POST", url: "/admin/solvers/:id/remove", listener: "internal", onRequest: adminOnly, schema: adminSolvers.removeSolverSchema, handler: adminSolvers.removeSolver(solvers) }),
    ] : []),
    route({ method: "GET", url: "/admin/keys", listener: "internal", onRequest: adminOnly, schema: adminKeys.listKeysSchema, handler: adminKeys.listKeys(admin.keys) }),
    route({ method: "POST", url: "/admin/keys", listener: "internal", onRequest: adminOnly, schema: adminKeys.createKeySchema, handler: adminKeys.createKey(admin.keys) }),
    route({ method: "POST", url: "/admin/keys/:name/revoke", listener: "internal", onRequest: adminOnly, schema: adminKeys.revokeKeySchema, handler: adminKeys.revokeKey(admin.keys) }),
  ];
}
