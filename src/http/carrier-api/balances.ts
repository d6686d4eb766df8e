// Carrier balances: an account's wallet (integer cents), top-ups, manual debits, and its ledger of transactions.
import { z } from "zod";
import { type LedgerEntry, ledgerKinds } from "../../domain/carrier-records.js";
import { ownedBy } from "../../domain/found.js";
import { getAccount } from "../../engine/accounts/accounts.js";
import { balanceOf, debit, listTransactions, topUp } from "../../engine/billing/ledger.js";
import { iso8601 } from "../format.js";
import { defineRoute } from "../route.js";
import {
  carrierBase,
  collectionDocument,
  collectionDocumentSchema,
  resourceObject,
  resourceSchema,
  singleDocument,
  singleDocumentSchema,
} from "./document.js";

const balancePath = (accountSid: string) => `${carrierBase}/accounts/${accountSid}/balances`;
const base = `${carrierBase}/accounts/:account_id/balances`;

/** Every wallet is kept in one currency. */
export const walletCurrency = "USD";
export const defaultTransactionLimit = 50;
export const maxTransactionLimit = 1000;

export const balanceResource = z.lazy(() =>
  resourceSchema(
    "balance",
    z.object({
      account_id: z.string(),
      balance_cents: z.number().int(),
      currency: z.string(),
      updated_at: z.string(),
    }),
  ),
);

export const balanceTransactionResource = z.lazy(() =>
  resourceSchema(
    "balance_transaction",
    z.object({
      account_id: z.string(),
      kind: z.enum(ledgerKinds),
      category: z.string(),
      amount_cents: z.number().int(),
      balance_cents: z.number().int(),
      currency: z.string(),
      description: z.string().nullable(),
      resource_type: z.string().nullable(),
      resource_id: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
);

export function renderBalanceTransaction(entry: LedgerEntry) {
  return resourceObject(
    "balance_transaction",
    entry.sid,
    `${balancePath(entry.account_sid)}/transactions/${entry.sid}`,
    {
      account_id: entry.account_sid,
      kind: entry.kind,
      category: entry.category,
      amount_cents: entry.amount_cents,
      balance_cents: entry.balance_cents,
      currency: walletCurrency,
      description: entry.description,
      resource_type: entry.resource_type,
      resource_id: entry.resource_sid,
      created_at: iso8601(entry.created_at),
    },
    { account: { type: "account", id: entry.account_sid } },
  );
}

/** Spec: "body (no data wrapper): category, amount_cents, description". */
const movementBody = z.lazy(() =>
  z.strictObject({
    category: z.string({ error: "must be a string" }).trim().min(1, "must not be blank"),
    amount_cents: z
      .number({ error: "must be a whole number of cents" })
      .int("must be a whole number of cents")
      .positive("must be more than 0")
      .max(Number.MAX_SAFE_INTEGER, "is too large"),
    description: z.string({ error: "must be a string" }).optional(),
  }),
);

const transactionsQuery = z.lazy(() =>
  z.strictObject({
    category: z.string().min(1, "must not be blank").optional(),
    limit: z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(1, `must be between 1 and ${maxTransactionLimit}`)
      .max(maxTransactionLimit, `must be between 1 and ${maxTransactionLimit}`)
      .default(defaultTransactionLimit),
    page: z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(0)
      .default(0),
  }),
);

const movementRoute = (kind: "top_up" | "debit") =>
  defineRoute({
    method: "POST",
    path: `${base}/${kind}`,
    surface: "carrier",
    summary:
      kind === "top_up"
        ? "Add credit to the account's wallet"
        : "Deduct from the wallet by hand (refund or correction); never below zero",
    auth: { kind: "carrier" },
    body: movementBody,
    plainJsonBody: true,
    status: 201,
    response: z.lazy(() => singleDocumentSchema(balanceTransactionResource)),
    handle({ params, body, request, services }) {
      const account = getAccount(services.context, params.account_id!, request.path);
      const entry = (kind === "top_up" ? topUp : debit)(services.context, account.sid, body);
      const resource = renderBalanceTransaction(entry);
      return singleDocument(201, resource, { location: resource.links.self });
    },
  });

export const carrierBalanceRoutes = [
  defineRoute({
    method: "GET",
    path: base,
    surface: "carrier",
    summary: "The account's wallet balance, in cents",
    auth: { kind: "carrier" },
    response: z.lazy(() => singleDocumentSchema(balanceResource)),
    handle({ params, request, services }) {
      const account = getAccount(services.context, params.account_id!, request.path);
      // The newest entry of the account's ledger bucket: O(log n), however long the ledger.
      const last = services.context.store.ledger.latest("account", account.sid);
      return singleDocument(
        200,
        resourceObject(
          "balance",
          account.sid,
          balancePath(account.sid),
          {
            account_id: account.sid,
            balance_cents: balanceOf(services.context, account.sid),
            currency: walletCurrency,
            updated_at: iso8601(last ? last.created_at : account.created_at),
          },
          { account: { type: "account", id: account.sid } },
        ),
      );
    },
  }),
  movementRoute("top_up"),
  movementRoute("debit"),
  defineRoute({
    method: "GET",
    path: `${base}/transactions`,
    surface: "carrier",
    summary: "The wallet's ledger, newest first: `category` filter, `limit` (default 50) and `page`",
    auth: { kind: "carrier" },
    query: transactionsQuery,
    response: z.lazy(() =>
      collectionDocumentSchema(balanceTransactionResource, { balance_cents: z.number().int() }),
    ),
    handle({ params, query, request, services }) {
      const account = getAccount(services.context, params.account_id!, request.path);
      return collectionDocument({
        path: `${balancePath(account.sid)}/transactions`,
        filters: query.category === undefined ? [] : [["category", query.category]],
        page: query.page,
        perPage: query.limit,
        sizeParam: "limit",
        records: listTransactions(services.context, account.sid, query.category),
        render: renderBalanceTransaction,
        meta: { balance_cents: balanceOf(services.context, account.sid) },
      });
    },
  }),
  defineRoute({
    method: "GET",
    path: `${base}/transactions/:id`,
    surface: "carrier",
    summary: "Fetch one ledger transaction",
    auth: { kind: "carrier" },
    response: z.lazy(() => singleDocumentSchema(balanceTransactionResource)),
    handle({ params, request, services }) {
      const account = getAccount(services.context, params.account_id!, request.path);
      const entry = ownedBy(services.context.store.ledger.get(params.id!), account.sid, request.path);
      return singleDocument(200, renderBalanceTransaction(entry));
    },
  }),
];
