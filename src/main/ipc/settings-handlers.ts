import type { Handlers, SecretsStatus } from '../../shared/ipc/contract';
import { VerbatimError } from '../../shared/errors';
import { unconfirmedKeyDestinations, type KeyName } from '../../shared/key-destinations';
import type { SecretName } from '../core/secrets/secret-store';
import { moveDataFolder } from '../core/data-folder/data-folder';
import type { Services } from '../core/app-services';

type SettingsHandlers = Pick<
  Handlers,
  | 'app.info'
  | 'app.moveDataFolder'
  | 'app.relaunch'
  | 'settings.get'
  | 'settings.set'
  | 'settings.addresses'
  | 'secrets.status'
  | 'secrets.setTranscriptionKey'
  | 'secrets.clearTranscriptionKey'
  | 'connection.test'
>;

/** Which of the keys the app holds (never the keys themselves). */
export function secretsStatusOf(services: Pick<Services, 'secrets'>): SecretsStatus {
  const isSet = (name: SecretName): boolean => services.secrets.peek(name) !== undefined;
  return {
    transcriptionKeySet: isSet('transcriptionKey'),
    catalogKeySet: isSet('catalogKey'),
    managementKeySet: isSet('managementKey'),
  };
}

/** The app itself, its settings, its keys and the connection test. */
export function createSettingsHandlers(services: Services): SettingsHandlers {
  const secretsStatus = (): SecretsStatus => secretsStatusOf(services);
  return {
    'app.info': () => Promise.resolve(services.appInfo),
    'app.moveDataFolder': ({ path }) =>
      moveDataFolder({
        database: services.core.database,
        from: services.dataFolder.current,
        to: path,
        defaultFolder: services.dataFolder.home,
      }),
    'app.relaunch': () => {
      if (!services.relaunch) {
        throw new VerbatimError(
          'invalid_input',
          'Restart Verbatim yourself to use the new folder: this window cannot restart it.',
        );
      }
      services.relaunch();
      return Promise.resolve({ relaunching: true });
    },
    'settings.get': () => services.settings.get(),
    'settings.set': async ({ sendKeysTo, ...patch }) => {
      const stored = new Set<KeyName>(
        (['transcriptionKey', 'catalogKey'] as const).filter((name) => services.secrets.peek(name)),
      );
      const [unconfirmed] = unconfirmedKeyDestinations(
        await services.settings.get(),
        patch,
        stored,
        sendKeysTo,
      );
      if (unconfirmed) {
        const key = unconfirmed.key === 'catalogKey' ? 'catalog key' : 'transcription key';
        throw new VerbatimError(
          'forbidden',
          `Verbatim would send your ${key} to ${unconfirmed.origin}. Use this address only if you trust that server.`,
          { origin: unconfirmed.origin, field: unconfirmed.field },
        );
      }
      return services.settings.set(patch);
    },
    'settings.addresses': () => Promise.resolve(services.addresses),
    'secrets.status': () => Promise.resolve(secretsStatus()),
    'secrets.setTranscriptionKey': async ({ key }) => {
      await services.secrets.set('transcriptionKey', key);
      return secretsStatus();
    },
    'secrets.clearTranscriptionKey': async () => {
      await services.secrets.delete('transcriptionKey');
      return secretsStatus();
    },
    'connection.test': async ({ region }) => {
      if (!services.secrets.peek('transcriptionKey')) {
        return { ok: false, message: 'No transcription key is set yet. Enter your key first.' };
      }
      const chosen = region ?? (await services.settings.get()).region;
      try {
        await services.core.clientFor(chosen).list({ limit: 1 });
        // What answered, by its address: the service's own, Settings' or the one Verbatim was started with.
        return {
          ok: true,
          message: `Connected to the transcription service at ${services.core.transcriptionAddress(chosen)} (${chosen.toUpperCase()} region). Your key works.`,
        };
      } catch (error) {
        return { ok: false, message: error instanceof VerbatimError ? error.message : String(error) };
      }
    },
  };
}
