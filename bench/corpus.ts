import type { ResourceName } from '../src/index';

/**
 * Realistic queries over the catalog's resources, as a client sends them: some with
 * only the necessary escapes (`totalAmount=gte:100;lte:200`), some fully encoded the
 * way `URLSearchParams` writes them (`gte%3A100%3Blte%3A200`, `+` for space); 1 to 10
 * clauses; quoted values, wildcards, child paths, refs, dates and date-times,
 * non-ASCII text, repeated keys and pass-through parameters (`limit`, `businessName`…).
 * Every query is valid for its resource, with the request parameters it requires (the
 * connection a data endpoint reads): the scenarios time the path a server takes on every
 * well-formed request.
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

/** The connection a data endpoint reads, which the catalog requires: as typed, and as `URLSearchParams` writes it. */
const ACME = 'businessName=Acme&serviceName=quickbooks&';
const ACME_ENCODED = 'businessName=Acme+Corp&serviceName=quickbooks&';

export const CORPUS: readonly CorpusQuery[] = [
  // ---------------------------------------------------------------- invoices
  { resource: 'invoices', query: `${ACME}customerRef.id=42`, rsql: 'customerRef.id==42' },
  { resource: 'invoices', query: `${ACME}totalAmount=gte:100;lte:200`, rsql: 'totalAmount>=100;totalAmount<=200' },
  { resource: 'invoices', query: `${ACME_ENCODED}totalAmount=gte%3A100%3Blte%3A200`, rsql: 'totalAmount>=100;totalAmount<=200' },
  {
    resource: 'invoices',
    query: `${ACME}customerRef.id=42&totalAmount=gte:100;lte:200`,
    rsql: 'customerRef.id==42;totalAmount>=100;totalAmount<=200',
  },
  { resource: 'invoices', query: `${ACME}lines.description=Consulting%20fee`, rsql: 'lines.description=="Consulting fee"' },
  { resource: 'invoices', query: `${ACME_ENCODED}lines.description=Consulting+fee&limit=50`, rsql: 'lines.description=="Consulting fee"' },
  {
    resource: 'invoices',
    query: `${ACME}postedDate=gte:2024-01-01;lt:2024-04-01&status=open&limit=100&offset=200`,
    rsql: 'postedDate>=2024-01-01;postedDate<2024-04-01;status==open',
  },
  { resource: 'invoices', query: `${ACME}invoiceNumber=INV-2024%25`, rsql: 'invoiceNumber==INV-2024*' },
  {
    resource: 'invoices',
    query: `${ACME}lines.amount=gte:10;lte:20&lines.description=%25hosting%25`,
    rsql: 'lines.amount>=10;lines.amount<=20;lines.description==*hosting*',
  },
  {
    resource: 'invoices',
    query: `${ACME}dueDate=lt:2024-06-30T17:00:00Z&amountDue=gt:0`,
    rsql: 'dueDate<2024-06-30T17:00:00Z;amountDue>0',
  },
  {
    resource: 'invoices',
    query: `${ACME_ENCODED}dueDate=lt%3A2024-06-30T17%3A00%3A00%2B02%3A00&amountDue=gt%3A0`,
    rsql: 'dueDate<2024-06-30T17:00:00+02:00;amountDue>0',
  },
  {
    resource: 'invoices',
    query: `${ACME}totalAmount=gt:1e3&status=paid&customerRef.id=C-1042&lines.id=L-77`,
    rsql: 'totalAmount>1e3;status==paid;customerRef.id==C-1042;lines.id==L-77',
  },
  {
    // Ten clauses.
    resource: 'invoices',
    query: `${ACME}totalAmount=gte:100;lte:5000&amountDue=gt:0&postedDate=gte:2024-01-01;lt:2025-01-01&status=open&customerRef.id=42&lines.amount=gte:50;lte:500&lines.description=%25consult%25`,
    rsql: 'totalAmount>=100;totalAmount<=5000;amountDue>0;postedDate>=2024-01-01;postedDate<2025-01-01;status==open;customerRef.id==42;lines.amount>=50;lines.amount<=500;lines.description==*consult*',
  },
  {
    resource: 'invoices',
    query: `${ACME_ENCODED}totalAmount=gte%3A100%3Blte%3A5000&amountDue=gt%3A0&postedDate=gte%3A2024-01-01%3Blt%3A2025-01-01&status=open&customerRef.id=42&lines.amount=gte%3A50%3Blte%3A500&lines.description=%25consult%25&limit=20`,
    rsql: 'totalAmount>=100;totalAmount<=5000;amountDue>0;postedDate>=2024-01-01;postedDate<2025-01-01;status==open;customerRef.id==42;lines.amount>=50;lines.amount<=500;lines.description==*consult*',
  },
  { resource: 'invoices', query: `${ACME}invoiceNumber=%22INV%3B2024%3B001%22`, rsql: 'invoiceNumber=="INV;2024;001"', naiveSplitBreaks: true },
  {
    resource: 'invoices',
    query: `${ACME}lines.description=%22gte%3A%20not%20an%20operator%22`,
    rsql: 'lines.description=="gte: not an operator"',
  },

  // ---------------------------------------------------------------- vendors
  { resource: 'vendors', query: `${ACME}vendorName=%25acme%25`, rsql: 'vendorName==*acme*' },
  { resource: 'vendors', query: `${ACME}vendorName=Acme%20%26%20Sons`, rsql: 'vendorName=="Acme & Sons"' },
  { resource: 'vendors', query: `${ACME}vendorName=%25acme%25&balance=gte:0&limit=20`, rsql: 'vendorName==*acme*;balance>=0' },
  { resource: 'vendors', query: `${ACME}vendorName=%25%40example.com`, rsql: 'vendorName==*@example.com' },
  { resource: 'vendors', query: `${ACME}vendorName=100%5C%25%20Organic%25`, rsql: 'vendorName=="100% Organic*"' },
  {
    resource: 'vendors',
    query: `${ACME}sourceModifiedDate=gte:2023-01-09T00:00:00.000Z;lt:2023-02-01&vendorName=Globex%25`,
    rsql: 'sourceModifiedDate>=2023-01-09T00:00:00.000Z;sourceModifiedDate<2023-02-01;vendorName==Globex*',
  },
  {
    resource: 'vendors',
    query: `${ACME}vendorName=%22O%27Brien%20%5C%22Co%5C%22%22`,
    rsql: 'vendorName=="O\'Brien \\"Co\\""',
  },
  { resource: 'vendors', query: `${ACME}vendorName=Caf%C3%A9%20M%C3%BCller`, rsql: 'vendorName=="Café Müller"' },
  { resource: 'vendors', query: `${ACME}vendorName=%25%E6%A0%AA%E5%BC%8F%E4%BC%9A%E7%A4%BE%25&offset=100`, rsql: 'vendorName==*株式会社*' },

  // ---------------------------------------------------------------- balance sheets
  {
    resource: 'balanceSheets',
    query: 'businessName=Acme&reportFrequency=month&serviceName=quickbooks&group=assets&value=gt:1000',
    rsql: 'group==assets;value>1000',
  },
  {
    resource: 'balanceSheets',
    query: 'businessName=Acme+Corp&reportFrequency=quarter&serviceName=xero&group=liabilities&value=lte%3A-250.50&depth=2',
    rsql: 'group==liabilities;value<=-250.50;depth==2',
  },
  {
    resource: 'balanceSheets',
    query: '?businessName=Acme&reportFrequency=year&serviceName=quickbooks&account=%25Cash%25&value=gte:0&depth=gte:1;lte:3',
    rsql: 'account==*Cash*;value>=0;depth>=1;depth<=3',
  },
  {
    resource: 'balanceSheets',
    query: 'value=gte:1&value=lte:5&group=assets&businessName=Acme&serviceName=xero&reportFrequency=month',
    rsql: 'value>=1;value<=5;group==assets',
  },

  // ---------------------------------------------------------------- deposits
  { resource: 'deposits', query: `${ACME}memo=%25refund%25&postedDate=2023-01-09`, rsql: 'memo==*refund*;postedDate==2023-01-09' },
  {
    resource: 'deposits',
    query: `${ACME}lines.amount=gt:0;lt:1000000&memo=Wire%20transfer&totalAmount=gte:500`,
    rsql: 'lines.amount>0;lines.amount<1000000;memo=="Wire transfer";totalAmount>=500',
  },
  { resource: 'deposits', query: `${ACME}memo=%22Q1%3B%20adjusted%22&limit=10`, rsql: 'memo=="Q1; adjusted"', naiveSplitBreaks: true },

  // ---------------------------------------------------------------- bills
  { resource: 'bills', query: `${ACME}status=open&dueDate=lte:2024-12-31`, rsql: 'status==open;dueDate<=2024-12-31' },
  { resource: 'bills', query: `${ACME}memo=%25%5C%25%25`, rsql: 'memo==*%*' },
  {
    resource: 'bills',
    query: `${ACME}totalAmount=gte:0.01&memo=%25license%25&lines.amount=gte:100&offset=40&limit=20`,
    rsql: 'totalAmount>=0.01;memo==*license*;lines.amount>=100',
  },

  // ---------------------------------------------------------------- connections, sync status
  { resource: 'connections', query: 'serviceName=quickbooks&status=active&syncTime=gt:30', rsql: 'serviceName==quickbooks;status==active;syncTime>30' },
  {
    resource: 'connections',
    query: 'syncTime=gte:0;lt:3600&connectionUuid=CON-%25&businessName=%25Ltd',
    rsql: 'syncTime>=0;syncTime<3600;connectionUuid==CON-*;businessName==*Ltd',
  },
  {
    resource: 'syncStatus',
    query: 'businessName=Acme&serviceName=oracleNetsuite&dataType=invoices&syncTime=lt:3600&startDate=2024-01-01',
    rsql: 'dataType==invoices;syncTime<3600',
  },
  { resource: 'syncStatus', query: `${ACME}syncTime=gt:120&dataType=%22%22`, rsql: 'syncTime>120;dataType==""' },
];

/**
 * Ten harder queries, as `URLSearchParams` or a careful client encodes them: operators
 * sent encoded (`gte%3A`), quoted operands (`%22…%22`, some holding `;`, escapes or a
 * `%` wildcard), date-times whose offsets are encoded (`%2B02%3A00`). Each character
 * of them costs the decoder more than in `CORPUS`, and each clause costs the lexer an
 * operator or a quoted operand's three tokens (issue 26).
 */
export const HARD_CORPUS: readonly CorpusQuery[] = [
  {
    resource: 'invoices',
    query: `${ACME_ENCODED}postedDate=gte%3A2024-01-01T00%3A00%3A00%2B02%3A00%3Blt%3A2024-04-01T00%3A00%3A00%2B02%3A00`,
    rsql: 'postedDate>=2024-01-01T00:00:00+02:00;postedDate<2024-04-01T00:00:00+02:00',
  },
  {
    resource: 'invoices',
    query: `${ACME_ENCODED}invoiceNumber=%22INV%3B2024%3B001%22&totalAmount=gte%3A100.50%3Blte%3A9999.99&limit=50`,
    rsql: 'invoiceNumber=="INV;2024;001";totalAmount>=100.50;totalAmount<=9999.99',
    naiveSplitBreaks: true,
  },
  {
    resource: 'invoices',
    query: `${ACME_ENCODED}dueDate=lt%3A2024-06-30T17%3A00%3A00-05%3A00&lines.description=%22%25consulting%25%22&amountDue=gt%3A0`,
    rsql: 'dueDate<2024-06-30T17:00:00-05:00;lines.description=="*consulting*";amountDue>0',
  },
  {
    resource: 'invoices',
    query: `${ACME_ENCODED}sourceModifiedDate=gte%3A2023-12-31T23%3A59%3A59.999%2B01%3A00&status=%22open%22&customerRef.id=%22C-1042%22`,
    rsql: 'sourceModifiedDate>=2023-12-31T23:59:59.999+01:00;status=="open";customerRef.id=="C-1042"',
  },
  {
    resource: 'vendors',
    query: `${ACME_ENCODED}vendorName=%22Smith%2C+Jones+%26+Partners%3B+LLP%22&balance=gt%3A-1000%3Blte%3A1e6`,
    rsql: 'vendorName=="Smith, Jones & Partners; LLP";balance>-1000;balance<=1e6',
    naiveSplitBreaks: true,
  },
  {
    resource: 'vendors',
    query: `${ACME_ENCODED}sourceModifiedDate=gt%3A2024-03-10T02%3A30%3A00%2B05%3A30%3Blte%3A2024-03-11T02%3A30%3A00%2B05%3A30&vendorName=%22gte%3A+is+text%22`,
    rsql: 'sourceModifiedDate>2024-03-10T02:30:00+05:30;sourceModifiedDate<=2024-03-11T02:30:00+05:30;vendorName=="gte: is text"',
  },
  {
    resource: 'deposits',
    query: `${ACME_ENCODED}memo=%22Q1%3B+%5C%22adjusted%5C%22+%5C%25%22&postedDate=gte%3A2024-01-01T00%3A00%3A00Z%3Blt%3A2024-04-01T00%3A00%3A00Z&offset=20`,
    rsql: 'memo=="Q1; \\"adjusted\\" %";postedDate>=2024-01-01T00:00:00Z;postedDate<2024-04-01T00:00:00Z',
    naiveSplitBreaks: true,
  },
  {
    resource: 'bills',
    query: `${ACME_ENCODED}dueDate=gte%3A2024-07-01T09%3A00%3A00%2B09%3A00&memo=%22%25license%25%22&lines.amount=gte%3A100%3Blt%3A5000&status=%22open%22`,
    rsql: 'dueDate>=2024-07-01T09:00:00+09:00;memo=="*license*";lines.amount>=100;lines.amount<5000;status=="open"',
  },
  {
    resource: 'bills',
    query: `${ACME_ENCODED}totalAmount=gte%3A0.01%3Blte%3A250000&postedDate=lt%3A2025-01-01T00%3A00%3A00-08%3A00&memo=%22Caf%C3%A9+M%C3%BCller%22`,
    rsql: 'totalAmount>=0.01;totalAmount<=250000;postedDate<2025-01-01T00:00:00-08:00;memo=="Café Müller"',
  },
  {
    resource: 'deposits',
    query: `${ACME_ENCODED}lines.amount=gt%3A0%3Blt%3A1000000&memo=%22Wire+transfer%3A+ref+%2342%22&totalAmount=gte%3A500&postedDate=gte%3A2024-02-29T12%3A00%3A00%2B00%3A00`,
    rsql: 'lines.amount>0;lines.amount<1000000;memo=="Wire transfer: ref #42";totalAmount>=500;postedDate>=2024-02-29T12:00:00+00:00',
  },
];
