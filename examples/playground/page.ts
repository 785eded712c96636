/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The playground's script, bundled into the page by `build.ts`. It checks the query as
 * it is typed with the schemas the example server checks with (so what it accepts, the
 * server accepts), shows every diagnostic as the CLI renders it, explains the filter
 * with the CLI's words, prints its canonical form, and fetches the matching rows from
 * the server that serves the page. The form builds the same query with `query()`.
 */
import { check, format, formatDiagnostic, query, type Diagnostic, type Field, type Filter, type Schema } from 'qsfilter';
import { explain, explainOrder } from '../../src/cli/explain';
import { collections, type Resource } from '../server/resources';

/** The connection the sample data holds most of: a data collection needs one. */
const CONNECTION = { businessName: 'Acme & Sons', serviceName: 'quickbooks' };

/** A query to start from, per collection: the connection, and a filter worth seeing. */
const STARTERS: Partial<Record<Resource, string>> = {
  invoices: 'totalAmount=gte:100;lte:2000&orderBy=-totalAmount&limit=5',
  vendors: 'vendorName=%25acme%25',
  balanceSheets: 'reportFrequency=month&value=gt:10000&limit=5',
  bills: 'status=open&orderBy=dueDate&limit=5',
  deposits: 'memo=%25cash%25',
  connections: 'syncTime=gt:3600',
};

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const el = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className !== undefined) node.className = className;
  return node;
};

const resourceSelect = $<HTMLSelectElement>('resource');
const input = $<HTMLInputElement>('query');
const status = $('status');
const diagnosticsBox = $('diagnostics');
const explanation = $('explanation');
const canonical = $('canonical');
/** "What it means" and "Canonical form": shown only for a valid query. */
const meaning = $('meaning');
const rows = $('rows');
const form = $('form');

function schema(): Schema {
  return collections[resourceSelect.value as Resource];
}

function needsConnection(s: Schema): boolean {
  return s.requestParams.get('businessName')?.required === true;
}

function starter(resource: Resource): string {
  const s = collections[resource];
  const connection = needsConnection(s) ? `businessName=${encodeURIComponent(CONNECTION.businessName)}&serviceName=${CONNECTION.serviceName}` : '';
  return [connection, STARTERS[resource] ?? ''].filter((part) => part !== '').join('&');
}

// ---------------------------------------------------------------- typed query → diagnostics, words, rows

let latest = 0;

async function update(): Promise<void> {
  const run = ++latest;
  const result = check(input.value, schema());
  // Which query the page shows: the input is checked a moment after the last keystroke.
  document.body.dataset.checked = input.value;
  diagnosticsBox.replaceChildren();
  explanation.replaceChildren();
  canonical.replaceChildren();
  meaning.hidden = !result.ok;
  if (!result.ok) {
    status.textContent = `${result.errors.length} problem${result.errors.length === 1 ? '' : 's'}: the server would answer 400.`;
    status.className = 'bad';
    diagnosticsBox.append(...result.errors.map(renderDiagnostic));
    rows.replaceChildren(el('p', 'Fix the query to see the rows it selects.', 'muted'));
    return;
  }
  status.textContent = 'Valid: this is what the server will do.';
  status.className = 'good';
  showFilter(result.value);
  const path = `/${resourceSelect.value}${canonical.textContent === '' ? '' : `?${canonical.textContent}`}`;
  rows.replaceChildren(el('p', `GET ${path} …`, 'muted'));
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  const body = (await response.json()) as { data?: Record<string, unknown>[]; pagination?: { count: number; offset: number }; errors?: Diagnostic[] };
  if (run !== latest) return; // a newer query is on its way
  if (!response.ok) {
    rows.replaceChildren(el('p', `The server answered ${response.status}.`, 'bad'), ...(body.errors ?? []).map(renderDiagnostic));
    return;
  }
  renderRows(path, body.data ?? [], body.pagination);
}

function showFilter(filter: Filter): void {
  const sentences = [...explain(filter), ...explainOrder(filter)];
  if (filter.conditions.length === 0) sentences.unshift('Every item matches (no filter).');
  explanation.append(...sentences.map((s) => el('li', s)));
  canonical.textContent = format(filter);
}

/**
 * A diagnostic as the CLI prints it (caret under the span, then the hint), its parts
 * styled, a line to a span: the message and the hint wrap within the box (a hint may list
 * every field of a resource), the excerpt and its caret line never do.
 */
function renderDiagnostic(d: Diagnostic): HTMLElement {
  // Private-use marks around the styled parts; each part becomes its own text node.
  const text = formatDiagnostic(d, { style: { code: (t) => `\uE000c${t}\uE001`, caret: (t) => `\uE000a${t}\uE001`, hint: (t) => `\uE000h${t}\uE001` } });
  const pre = el('pre', undefined, 'diagnostic');
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const kind = i === 0 ? 'message' : line.includes('\uE000h') ? 'hint-line' : 'excerpt';
    const span = el('span', undefined, `line ${kind}`);
    for (const part of `${line}${i < lines.length - 1 ? '\n' : ''}`.split(/(\uE000[cah][^\uE001]*\uE001)/)) {
      if (part.startsWith('\uE000')) span.append(el('span', part.slice(2, -1), { c: 'code', a: 'caret', h: 'hint' }[part[1]!]));
      else if (part !== '') span.append(part);
    }
    pre.append(span);
  });
  return pre;
}

function renderRows(path: string, data: readonly Record<string, unknown>[], pagination: { count: number; offset: number } | undefined): void {
  const count = pagination?.count ?? data.length;
  const summary = el('p', `GET ${path} → ${count} match${count === 1 ? '' : 'es'}${data.length < count ? `, ${data.length} on this page` : ''}.`, 'muted');
  if (data.length === 0) {
    rows.replaceChildren(summary);
    return;
  }
  const columns = [...new Set(data.flatMap((item) => Object.keys(item)))].filter((c) => c !== 'businessName' && c !== 'serviceName');
  const table = el('table');
  const head = el('tr');
  head.append(...columns.map((c) => breakable('th', c, /(?=[A-Z])/)));
  table.append(head);
  for (const item of data) {
    const tr = el('tr');
    tr.append(...columns.map((c) => breakable('td', cell(item[c]), /(?<=\d{4}-\d\d-\d\dT)/)));
    table.append(tr);
  }
  rows.replaceChildren(summary, table);
}

/**
 * A table cell whose text may break where `at` matches (a `<wbr>`), besides its spaces:
 * a camelCase name before each capital, a date-time after its `T`. So the rows' table
 * fits a desktop page without breaking a name or a number in the middle.
 */
function breakable(tag: 'th' | 'td', text: string, at: RegExp): HTMLElement {
  const node = el(tag);
  text.split(at).forEach((part, i) => {
    if (i > 0) node.append(el('wbr'));
    node.append(part);
  });
  return node;
}

/** A value as a table cell shows it: a reference by its name and id, a list by its length, never raw JSON. */
function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return `${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value !== 'object') return String(value);
  const { id, name, ...rest } = value as Record<string, unknown>;
  const others = Object.entries(rest).map(([k, v]) => `${k}: ${cell(v)}`);
  if (id === undefined) return [name === undefined ? [] : [cell(name)], others].flat().join(', ');
  return [name === undefined ? cell(id) : `${cell(name)} (${cell(id)})`, ...others].join(', ');
}

// ---------------------------------------------------------------- the form: the same query, built with query()

const OPERATORS: Record<Field['type'], readonly string[]> = {
  number: ['eq', 'gt', 'gte', 'lt', 'lte'],
  date: ['eq', 'gt', 'gte', 'lt', 'lte'],
  string: ['eq', 'contains', 'startsWith', 'endsWith'],
  id: ['eq', 'contains', 'startsWith', 'endsWith'],
};

function select(name: string, options: readonly string[], value?: string): HTMLSelectElement {
  const s = el('select');
  s.name = name;
  s.append(...options.map((o) => Object.assign(el('option', o), { value: o })));
  if (value !== undefined) s.value = value;
  return s;
}

function textInput(name: string, placeholder: string, value = ''): HTMLInputElement {
  const i = el('input');
  Object.assign(i, { name, placeholder, value, type: 'text' });
  return i;
}

/** Whether buildForm is replacing the form: its events are not the user's then. */
let rebuilding = false;

/** Lays the form out for the chosen collection: conditions, sort, page and request parameters. */
function buildForm(): void {
  const s = schema();
  const filterable = [...s.fields.values()].filter((f) => f.removed === undefined);
  const sortable = [...s.fields.values()].filter((f) => f.sortable).map((f) => f.path);
  const conditions = el('div');
  conditions.id = 'conditions';
  const addCondition = (): void => {
    const row = el('div', undefined, 'condition');
    const path = select('path', filterable.map((f) => f.path));
    const operator = select('operator', []);
    const refill = (): void => {
      const type = s.fields.get(path.value)!.type;
      operator.replaceChildren(...OPERATORS[type].map((o) => Object.assign(el('option', o), { value: o })));
      value.placeholder = type === 'date' ? '2023-01-09' : type === 'number' ? '100' : 'text';
    };
    const value = textInput('value', '');
    path.addEventListener('change', refill);
    const remove = el('button', '×');
    remove.type = 'button';
    remove.title = 'Remove this condition';
    remove.addEventListener('click', () => {
      row.remove();
      fromForm();
    });
    row.append(path, operator, value, remove);
    refill();
    conditions.append(row);
  };
  const add = el('button', '+ condition');
  add.type = 'button';
  add.id = 'add-condition';
  add.addEventListener('click', addCondition);
  const params = [...s.requestParams.values()].map((p) => {
    const label = el('label', `${p.name}${p.required ? ' (required)' : ''} `);
    label.append(textInput(`param:${p.name}`, p.type ?? 'string', (CONNECTION as Record<string, string>)[p.name] ?? ''));
    return label;
  });
  const order = el('label', 'sort by ');
  order.append(select('orderBy', ['', ...sortable]), select('direction', ['asc', 'desc']));
  const limit = el('label', 'limit ');
  limit.append(textInput('limit', String(s.paging?.defaultLimit ?? '')));
  // Removing a focused input fires its change event: the form is half gone then, and of another collection.
  rebuilding = true;
  try {
    form.replaceChildren(conditions, add, el('div', undefined, 'params'), order, limit, el('ul', undefined, 'form-error'));
  } finally {
    rebuilding = false;
  }
  form.querySelector('.params')!.append(...params);
  if (sortable.length === 0) order.hidden = true;
  if (s.paging === undefined) limit.hidden = true;
}

/** What a form value must be, by the type of what it fills. */
type Kind = Field['type'] | 'limit';

/** The number syntax of the language (reference §4): what a number box may hold. */
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** Why a value typed into the form cannot be sent, in the page's words. */
function notA(label: string, kind: Kind, text: string): string {
  const shown = JSON.stringify(text);
  if (kind === 'number') return `${label}: ${shown} is not a number. Write one such as 100, -2.5 or 1.5e3.`;
  if (kind === 'date') return `${label}: ${shown} is not a date. Write one such as 2023-01-09, or a date-time such as 2023-01-09T10:00:00Z.`;
  if (kind === 'limit') return `${label}: ${shown} is not a whole number from 1 to ${schema().paging?.maxLimit ?? 1}.`;
  return `${label}: ${shown} cannot be sent.`;
}

/** Builds the query from the form with the typed builder, and shows it like a typed one; or says what in the form is wrong. */
function fromForm(): void {
  if (rebuilding) return;
  const s = schema();
  // The form's values are text: each is given to the builder as the type its field takes.
  type Loose = { where(p: string, o: string, v: unknown): Loose; orderBy(p: string, d: string): Loose; limit(n: unknown): Loose; param(n: string, v: unknown): Loose; toString(): string };
  let q = query(s) as unknown as Loose;
  const problems: string[] = [];
  /** Adds one value: a number box must hold a number in the language's syntax; the builder refuses the rest (a date that is none). */
  const give = (label: string, kind: Kind, text: string, add: (value: unknown) => Loose): void => {
    if (kind === 'number' || kind === 'limit') {
      if (!NUMBER.test(text) || !Number.isFinite(Number(text))) return void problems.push(notA(label, kind, text));
    }
    try {
      q = add(kind === 'number' || kind === 'limit' ? Number(text) : text);
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
      problems.push(notA(label, kind, text));
    }
  };
  for (const row of form.querySelectorAll<HTMLElement>('.condition')) {
    const [path, operator, value] = ['path', 'operator', 'value'].map((n) => row.querySelector<HTMLInputElement>(`[name="${n}"]`)!.value);
    if (value === '') continue;
    give(path!, s.fields.get(path!)!.type, value!, (v) => q.where(path!, operator!, v));
  }
  for (const p of s.requestParams.values()) {
    const value = form.querySelector<HTMLInputElement>(`[name="param:${p.name}"]`)!.value;
    if (value !== '') give(p.name, p.type ?? 'string', value, (v) => q.param(p.name, v));
  }
  const orderBy = form.querySelector<HTMLSelectElement>('[name="orderBy"]')!.value;
  if (orderBy !== '') q = q.orderBy(orderBy, form.querySelector<HTMLSelectElement>('[name="direction"]')!.value);
  const limit = form.querySelector<HTMLInputElement>('[name="limit"]')!.value;
  if (limit !== '' && s.paging !== undefined) give('limit', 'limit', limit, (v) => q.limit(v));
  form.querySelector('.form-error')!.replaceChildren(...problems.map((p) => el('li', p)));
  if (problems.length > 0) {
    showFormProblems(problems.length);
    return;
  }
  input.value = q.toString();
  usersQuery = true;
  void update();
}

/**
 * The page while the form holds a value that cannot be sent: no query is made of it, so
 * nothing is called valid, and no rows are shown (those of the last query would not be
 * what the form says).
 */
function showFormProblems(count: number): void {
  latest++; // rows still on their way belong to an older query
  status.textContent = `${count === 1 ? 'A value' : `${count} values`} in the form cannot be sent: see below the form.`;
  status.className = 'bad';
  for (const box of [diagnosticsBox, explanation, canonical]) box.replaceChildren();
  meaning.hidden = true;
  rows.replaceChildren(el('p', 'Fix the form to see the rows it selects.', 'muted'));
}

// ---------------------------------------------------------------- wiring

resourceSelect.append(...Object.keys(collections).map((name) => Object.assign(el('option', name), { value: name })));
resourceSelect.value = 'invoices';

function setMode(mode: 'type' | 'form'): void {
  document.body.dataset.mode = mode;
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-mode]')) b.setAttribute('aria-pressed', String(b.dataset.mode === mode));
  input.readOnly = mode === 'form';
  if (mode === 'form') fromForm();
}

/**
 * Whether the query in the box is the user's (typed, or built with the form) rather than
 * a starter the page put there: choosing another resource keeps the user's query, checked
 * against the new resource, and replaces only a starter (or an empty box).
 */
let usersQuery = false;

let timer: ReturnType<typeof setTimeout> | undefined;
input.addEventListener('input', () => {
  usersQuery = input.value !== '';
  clearTimeout(timer);
  timer = setTimeout(() => void update(), 120);
});
resourceSelect.addEventListener('change', () => {
  if (!usersQuery) input.value = starter(resourceSelect.value as Resource);
  buildForm();
  if (document.body.dataset.mode === 'form') fromForm();
  else void update();
});
form.addEventListener('input', fromForm);
form.addEventListener('change', fromForm);
for (const b of document.querySelectorAll<HTMLButtonElement>('[data-mode]')) b.addEventListener('click', () => setMode(b.dataset.mode as 'type' | 'form'));

input.value = starter('invoices');
buildForm();
setMode('type');
void update();
