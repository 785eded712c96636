/** Requests to try, printed when the server starts; a test runs each against the sample data. */
export interface ExampleRequest {
  /** Path and query, percent-encoded as a client sends it. */
  readonly path: string;
  readonly note: string;
  /** 200, or 400 for the examples of a bad query. */
  readonly status: 200 | 400;
}

/** The connection whose data the examples read, as the API requires it: the books of "Acme & Sons" in QuickBooks. */
const ACME = 'businessName=Acme%20%26%20Sons&serviceName=quickbooks';

/** Good filters on several collections, then two bad ones. */
export const EXAMPLE_REQUESTS: readonly ExampleRequest[] = [
  { path: `/invoices?${ACME}&customerRef.id=42&totalAmount=gte:100;lte:2000`, note: 'invoices of customer 42 from 100 to 2000', status: 200 },
  { path: `/vendors?${ACME}&vendorName=%25acme%25`, note: 'vendors whose name contains "acme"', status: 200 },
  {
    path: '/balanceSheets?businessName=Acme%20%26%20Sons&reportFrequency=month&serviceName=quickbooks&group=Current%20Assets&value=gt:10000',
    note: 'monthly current-asset lines over 10000',
    status: 200,
  },
  { path: `/invoices?${ACME}&lines.amount=gte:10;lte:50&postedDate=gte:2023-01-01&limit=5`, note: 'a line from 10 to 50, posted in 2023 or later', status: 200 },
  { path: `/invoices?${ACME}&orderBy=-totalAmount,postedDate&limit=3`, note: 'the three largest invoices, the oldest first among equals', status: 200 },
  { path: `/bills?${ACME}&status=open&dueDate=lt:2023-01-01`, note: 'open bills due before 2023', status: 200 },
  { path: '/connections?syncTime=gt:3600', note: 'connections whose initial sync took over an hour', status: 200 },
  { path: `/vendors?${ACME}&vendorName=%acme%`, note: 'bad: a bare "%" (send it as %25)', status: 400 },
  { path: `/deposits?${ACME}&lines.memo=%25cash%25`, note: 'bad: lines.memo was removed on 2023-01-09', status: 400 },
];

/**
 * A heavy valid query, about 4 KB, as the attack of issue 26 sent: child-array parameters
 * of 8 to 14 patterns each (one line must match all of a parameter's), a six-key
 * `orderBy`, 500 items; within the default limits (64 parameters, 16 clauses a value).
 * The load benchmark (bench/server-load.ts) and the tests of the store queue send it.
 */
export const HEAVY_REQUEST: string = (() => {
  const patterns = ['%25e%25', '%25s%25', '%25a%25n%25', '%25i%25o%25', '%25%25', '%25t%25', '%25r%25', '%25n%25'];
  const params: string[] = [];
  for (let i = 0; params.join('&').length < 3800; i++) {
    params.push(`lines.description=${Array.from({ length: 8 + (i % 7) }, (_, k) => patterns[(k + i) % patterns.length]!).join(';')}`);
  }
  return `/invoices?${ACME}&${params.join('&')}&orderBy=-totalAmount,postedDate,-dueDate,status,invoiceNumber,-subTotal&limit=500`;
})();
