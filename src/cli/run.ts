import { parseArgs, type ParseArgsConfig } from 'node:util';
import { version } from '../../package.json';
import { escaped, jsonQuote } from '../text/quote';
import { CHECK_OPTIONS, runCheck } from './commands/check';
import { FILTER_OPTIONS, runFilter } from './commands/filter';
import { RESOURCES_OPTIONS, runResources } from './commands/resources';
import { EXIT, HELP, InputError, reason, USAGE, UsageError } from './usage';

type Options = NonNullable<ParseArgsConfig['options']>;

/** A command: its options, how many positionals it takes, and what it does with them. */
interface Command<O extends Options> {
  readonly options: O;
  readonly positionals: readonly [min: number, max: number];
  readonly missing: string;
  run(positionals: string[], values: ReturnType<typeof parseArgs<{ options: O; allowPositionals: true }>>['values']): Promise<number> | number;
}

function command<O extends Options>(c: Command<O>): Command<O> {
  return c;
}

const COMMANDS = {
  check: command({
    options: CHECK_OPTIONS,
    positionals: [1, 1],
    missing: 'check needs a query: qsfilter check \'totalAmount=gte:100\' --resource invoices',
    run: ([query], values) => runCheck(query!, values),
  }),
  filter: command({
    options: FILTER_OPTIONS,
    positionals: [1, 2],
    missing: 'filter needs a query: qsfilter filter \'totalAmount=gte:100\' items.json --resource invoices',
    run: ([query, file], values) => runFilter(query!, file, values),
  }),
  resources: command({
    options: RESOURCES_OPTIONS,
    positionals: [0, 1],
    missing: '',
    run: ([name], values) => runResources(name, values),
  }),
} as const;

const HELP_OPTION = { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'V' } } as const;

/**
 * Runs the `qsfilter` command line (without the node and script arguments) and returns
 * the exit status. Usage and input errors are reported here, on stderr; any other
 * exception is a bug, reported as one.
 */
export async function run(argv: readonly string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (error) {
    // Every message here may quote what the user gave (a resource name, an option, a
    // file's path or content, a schema's names): it is escaped once, here, on its way out.
    if (error instanceof UsageError) {
      process.stderr.write(error.synopsis ? `qsfilter: ${escaped(error.message)}\n${USAGE}\n` : `qsfilter: ${escaped(error.message)}\n`);
      return EXIT.usage;
    }
    if (error instanceof InputError) {
      process.stderr.write(`qsfilter: ${escaped(error.message)}\n`);
      return EXIT.usage;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`qsfilter: internal error (please report it): ${detail.split('\n').map(escaped).join('\n')}\n`);
    return EXIT.internal;
  }
}

async function dispatch(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) throw new UsageError('missing command');
  if (name === '-h' || name === '--help' || name === 'help') {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  if (name === '-v' || name === '-V' || name === '--version') {
    process.stdout.write(`${version}\n`);
    return EXIT.ok;
  }
  if (!Object.hasOwn(COMMANDS, name)) throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  const cmd = COMMANDS[name as keyof typeof COMMANDS] as Command<Options>;
  const { positionals, values } = parseOptions(name, rest, { ...cmd.options, ...HELP_OPTION });
  if (values.help === true) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  if (values.version === true) {
    process.stdout.write(`${version}\n`);
    return EXIT.ok;
  }
  const [min, max] = cmd.positionals;
  if (positionals.length < min) throw new UsageError(cmd.missing);
  if (positionals.length > max) throw new UsageError(`too many arguments: ${positionals.slice(max).map((p) => JSON.stringify(p)).join(' ')}`);
  return cmd.run(positionals, values);
}

/**
 * The options and arguments of a command. An unknown option, a missing value or a value
 * given to a flag is one line of ours (parseArgs' own messages run to three lines and
 * suggest `--`); everything else is parseArgs' reading.
 */
function parseOptions(command: string, args: readonly string[], options: Options): { positionals: string[]; values: Record<string, string | boolean | (string | boolean)[] | undefined> } {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: false, tokens: true });
  } catch (error) {
    throw new UsageError(reason(error), { synopsis: false });
  }
  const see = `"qsfilter --help" lists the options`;
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    const option = Object.hasOwn(options, token.name) ? options[token.name]! : undefined;
    const flag = jsonQuote(token.rawName);
    if (option === undefined) throw new UsageError(`unknown option ${flag} for ${command}; ${see}`, { synopsis: false });
    if (option.type === 'boolean' && token.inlineValue === true) throw new UsageError(`option ${flag} takes no value; ${see}`, { synopsis: false });
    // Without strict, parseArgs takes the next argument as the value even when it is an option ("-r --count").
    if (option.type === 'string' && (token.value === undefined || (token.inlineValue !== true && token.value.startsWith('-') && token.value !== '-'))) {
      throw new UsageError(`option ${flag} needs a value; ${see}`, { synopsis: false });
    }
  }
  return { positionals: parsed.positionals, values: parsed.values };
}
