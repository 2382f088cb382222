import type { Handlers } from '../../shared/ipc/contract';
import type { Logger } from '../core/log/logger';

/** The renderer's one way into main's log: scrubbed and bounded like every other line. */
export function createLogHandlers(services: { logger: Logger }): Pick<Handlers, 'log.write'> {
  const renderer = services.logger.child('renderer');
  return {
    'log.write': ({ level, message, details }) => {
      renderer[level](message, details);
      return Promise.resolve({});
    },
  };
}
