import type { ResourceName } from '../src/index';

/**
 * Realistic queries over the catalog's resources, as a client sends them: some with
 * only the necessary escapes (`totalAmount=gte:100;lte:200`), some fully encoded the
 * way `URLSearchParams` writes them (`gte%3A100%3Blte%3A200`, `+` for space); 1 to 10
 * clauses; quoted values, wildcards, child paths, refs, dates and date-times,
 * non-ASCII text, repeated keys and pass-through parameters (`limit`, `businessName`…).
 * Every query is valid for its resource: the scenarios time the path a server takes on
 * every well-formed request.
 *
 * `rsql` is the same filter written in RSQL (pass-through parameters are not part of
 * it: they stay separate query parameters in an RSQL API either). `*` is RSQL's
 * wildcard by convention; the comparisons must come in the same order as ours.
 *
 * `naiveSplitBreaks` marks the queries where splitting the value on `;` without
 * looking at quotes gives a wrong answer: the naive baseline is timed on them too
 * (same work), but its answer there is asserted to be wrong, not right.
 */
export interface CorpusQuery {
  readonly resource: ResourceName;
  readonly query: string;
  readonly rsql: string;
  readonly naiveSplitBreaks?: true;
}

export const CORPUS: readonly CorpusQuery[] = [
  // ---------------------------------------------------------------- invoices
  { resource: 'invoices', query: 'customerRef.id=42', rsql: 'customerRef.id==42' },
  { resource: 'invoices', query: 'totalAmount=gte:100;lte:200', rsql: 'totalAmount>=100;totalAmount<=200' },
  { resource: 'invoices', query: 'totalAmount=gte%3A100%3Blte%3A200', rsql: 'totalAmount>=100;totalAmount<=200' },
  {
    resource: 'invoices',
    query: 'customerRef.id=42&totalAmount=gte:100;lte:200',
    rsql: 'customerRef.id==42;totalAmount>=100;totalAmount<=200',
  },
  { resource: 'invoices', query: 'lines.description=Consulting%20fee', rsql: 'lines.description=="Consulting fee"' },
  { resource: 'invoices', query: 'lines.description=Consulting+fee&limit=50', rsql: 'lines.description=="Consulting fee"' },
  {
    resource: 'invoices',
    query: 'issueDate=gte:2024-01-01;lt:2024-04-01&currency=EUR&limit=100&offset=200',
    rsql: 'issueDate>=2024-01-01;issueDate<2024-04-01;currency==EUR',
  },
  { resource: 'invoices', query: 'docNumber=INV-2024%25', rsql: 'docNumber==INV-2024*' },
  {
    resource: 'invoices',
    query: 'lines.amount=gte:10;lte:20&lines.description=%25hosting%25',
    rsql: 'lines.amount>=10;lines.amount<=20;lines.description==*hosting*',
  },
  {
    resource: 'invoices',
    query: 'dueDate=lt:2024-06-30T17:00:00Z&balance=gt:0',
    rsql: 'dueDate<2024-06-30T17:00:00Z;balance>0',
  },
  {
    resource: 'invoices',
    query: 'dueDate=lt%3A2024-06-30T17%3A00%3A00%2B02%3A00&balance=gt%3A0',
    rsql: 'dueDate<2024-06-30T17:00:00+02:00;balance>0',
  },
  {
    resource: 'invoices',
    query: 'totalAmount=gt:1e3&currency=USD&customerRef.id=C-1042&lines.itemRef.id=SKU-77',
    rsql: 'totalAmount>1e3;currency==USD;customerRef.id==C-1042;lines.itemRef.id==SKU-77',
  },
  {
    // Ten clauses.
    resource: 'invoices',
    query:
      'totalAmount=gte:100;lte:5000&balance=gt:0&issueDate=gte:2024-01-01;lt:2025-01-01&currency=EUR&customerRef.id=42&lines.amount=gte:50;lte:500&lines.description=%25consult%25',
    rsql: 'totalAmount>=100;totalAmount<=5000;balance>0;issueDate>=2024-01-01;issueDate<2025-01-01;currency==EUR;customerRef.id==42;lines.amount>=50;lines.amount<=500;lines.description==*consult*',
  },
  {
    resource: 'invoices',
    query: 'totalAmount=gte%3A100%3Blte%3A5000&balance=gt%3A0&issueDate=gte%3A2024-01-01%3Blt%3A2025-01-01&currency=EUR&customerRef.id=42&lines.amount=gte%3A50%3Blte%3A500&lines.description=%25consult%25&limit=20',
    rsql: 'totalAmount>=100;totalAmount<=5000;balance>0;issueDate>=2024-01-01;issueDate<2025-01-01;currency==EUR;customerRef.id==42;lines.amount>=50;lines.amount<=500;lines.description==*consult*',
  },
  { resource: 'invoices', query: 'docNumber=%22INV%3B2024%3B001%22', rsql: 'docNumber=="INV;2024;001"', naiveSplitBreaks: true },
  {
    resource: 'invoices',
    query: 'lines.description=%22gte%3A%20not%20an%20operator%22',
    rsql: 'lines.description=="gte: not an operator"',
  },

  // ---------------------------------------------------------------- vendors
  { resource: 'vendors', query: 'vendorName=%25acme%25', rsql: 'vendorName==*acme*' },
  { resource: 'vendors', query: 'vendorName=Acme%20%26%20Sons', rsql: 'vendorName=="Acme & Sons"' },
  { resource: 'vendors', query: 'vendorName=%25acme%25&balance=gte:0&limit=20', rsql: 'vendorName==*acme*;balance>=0' },
  { resource: 'vendors', query: 'email=%25%40example.com', rsql: 'email==*@example.com' },
  { resource: 'vendors', query: 'vendorName=100%5C%25%20Organic%25', rsql: 'vendorName=="100% Organic*"' },
  {
    resource: 'vendors',
    query: 'createdAt=gte:2023-01-09T00:00:00.000Z;lt:2023-02-01&vendorName=Globex%25',
    rsql: 'createdAt>=2023-01-09T00:00:00.000Z;createdAt<2023-02-01;vendorName==Globex*',
  },
  {
    resource: 'vendors',
    query: 'vendorName=%22O%27Brien%20%5C%22Co%5C%22%22',
    rsql: 'vendorName=="O\'Brien \\"Co\\""',
  },
  { resource: 'vendors', query: 'vendorName=Caf%C3%A9%20M%C3%BCller', rsql: 'vendorName=="Café Müller"' },
  { resource: 'vendors', query: 'vendorName=%25%E6%A0%AA%E5%BC%8F%E4%BC%9A%E7%A4%BE%25&offset=100', rsql: 'vendorName==*株式会社*' },

  // ---------------------------------------------------------------- balance sheets
  {
    resource: 'balanceSheets',
    query: 'businessName=Acme&reportFrequency=month&serviceName=quickbooks&group=assets&value=gt:1000',
    rsql: 'group==assets;value>1000',
  },
  {
    resource: 'balanceSheets',
    query: 'businessName=Acme+Corp&reportFrequency=quarter&serviceName=xero&group=liabilities&value=lte%3A-250.50&date=2024-03-31',
    rsql: 'group==liabilities;value<=-250.50;date==2024-03-31',
  },
  {
    resource: 'balanceSheets',
    query: '?name=%25Cash%25&value=gte:0&date=gte:2023-01-01;lte:2023-12-31',
    rsql: 'name==*Cash*;value>=0;date>=2023-01-01;date<=2023-12-31',
  },
  {
    resource: 'balanceSheets',
    query: 'value=gte:1&value=lte:5&group=assets&businessName=Acme&businessName=Globex',
    rsql: 'value>=1;value<=5;group==assets',
  },

  // ---------------------------------------------------------------- deposits
  { resource: 'deposits', query: 'memo=%25refund%25&txnDate=2023-01-09', rsql: 'memo==*refund*;txnDate==2023-01-09' },
  {
    resource: 'deposits',
    query: 'lines.amount=gt:0;lt:1000000&lines.description=Wire%20transfer&totalAmount=gte:500',
    rsql: 'lines.amount>0;lines.amount<1000000;lines.description=="Wire transfer";totalAmount>=500',
  },
  { resource: 'deposits', query: 'memo=%22Q1%3B%20adjusted%22&limit=10', rsql: 'memo=="Q1; adjusted"', naiveSplitBreaks: true },

  // ---------------------------------------------------------------- bills
  { resource: 'bills', query: 'vendorRef.id=V-311&dueDate=lte:2024-12-31', rsql: 'vendorRef.id==V-311;dueDate<=2024-12-31' },
  { resource: 'bills', query: 'memo=%25%5C%25%25', rsql: 'memo==*%*' },
  {
    resource: 'bills',
    query: 'totalAmount=gte:0.01&lines.description=%25license%25&lines.amount=gte:100&offset=40&limit=20',
    rsql: 'totalAmount>=0.01;lines.description==*license*;lines.amount>=100',
  },

  // ---------------------------------------------------------------- connections, sync status
  { resource: 'connections', query: 'serviceName=quickbooks&status=active&syncTime=gt:30', rsql: 'serviceName==quickbooks;status==active;syncTime>30' },
  {
    resource: 'connections',
    query: 'syncTime=gte:0;lt:3600&createdAt=gte:2023-01-09&businessName=%25Ltd',
    rsql: 'syncTime>=0;syncTime<3600;createdAt>=2023-01-09;businessName==*Ltd',
  },
  {
    resource: 'syncStatus',
    query: 'serviceName=netsuite&lastSyncedAt=lt:2024-01-01T00:00:00%2B00:00&status=failed',
    rsql: 'serviceName==netsuite;lastSyncedAt<2024-01-01T00:00:00+00:00;status==failed',
  },
  { resource: 'syncStatus', query: 'syncTime=gt:120&status=%22%22', rsql: 'syncTime>120;status==""' },
];
