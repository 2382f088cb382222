import { createApi, type Api } from '../../../shared/ipc/api';

/** The contract as renderer code uses it: values in, values out, VerbatimError on failure. */
export const api: Api = createApi(window.api);
