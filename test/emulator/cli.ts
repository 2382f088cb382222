import { parseArgs } from 'node:util';
import { startEmulator } from './server';

/** `npm run emulator -- [--port 8787] [--eu-port N] [--key KEY] [--management-key KEY] [--speed F] [--data DIR]` */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    'eu-port': { type: 'string' },
    key: { type: 'string' },
    'management-key': { type: 'string' },
    speed: { type: 'string', default: '1' },
    data: { type: 'string' },
  },
  strict: true,
});

function number(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) {
    console.error(`emulator: --${name} must be a number, got "${text}"`);
    process.exit(2);
  }
  return value;
}

const emulator = await startEmulator({
  port: number('port', values.port),
  euPort: number('eu-port', values['eu-port']),
  key: values.key,
  managementKey: values['management-key'],
  speed: number('speed', values.speed),
  dataDir: values.data,
});
console.log(`emulator listening on ${emulator.url}`);
if (emulator.euUrl) console.log(`emulator EU region on ${emulator.euUrl}`);

const stop = (): void => {
  void emulator.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
