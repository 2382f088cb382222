import { parseArgs } from 'node:util';
import { startEmulator } from './server';

/** `npm run emulator -- [--port 8787] [--eu-port N] [--key KEY] [--management-key KEY] [--speed F] [--data DIR]` */
const usage =
  'Usage: npm run emulator -- [--port 8787] [--eu-port N] [--key KEY] [--management-key KEY] [--speed F] [--data DIR]';

function fail(message: string, code: number): never {
  console.error(`emulator: ${message}`);
  process.exit(code);
}

let values: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      port: { type: 'string', default: '8787' },
      'eu-port': { type: 'string' },
      key: { type: 'string' },
      'management-key': { type: 'string' },
      speed: { type: 'string', default: '1' },
      data: { type: 'string' },
    },
    strict: true,
  }).values;
}
try {
  values = parse();
} catch (error) {
  const option = /'(-[^']+)'/.exec((error as Error).message)?.[1];
  fail(`${option ? `unknown option ${option}` : (error as Error).message}\n${usage}`, 2);
}

function number(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) fail(`--${name} must be a number, got "${text}"`, 2);
  return value;
}

let emulator: Awaited<ReturnType<typeof startEmulator>>;
try {
  emulator = await startEmulator({
    port: number('port', values.port),
    euPort: number('eu-port', values['eu-port']),
    key: values.key,
    managementKey: values['management-key'],
    speed: number('speed', values.speed),
    dataDir: values.data,
  });
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    fail(
      `port ${values.port} is already in use (another emulator?). Stop it or choose another with --port.`,
      1,
    );
  if (code === 'EACCES')
    fail(`port ${values.port} needs privileges this user lacks: choose one above 1024.`, 1);
  fail(error instanceof Error ? error.message : String(error), 1);
}
console.log(`emulator listening on ${emulator.url}`);
if (emulator.euUrl) console.log(`emulator EU region on ${emulator.euUrl}`);

const stop = (): void => {
  void emulator.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
