import { describe, expect, it } from 'vitest';
import { serviceAddresses } from './service-addresses';

describe('serviceAddresses', () => {
  it('names the address Verbatim was started with, and the variable that sets it, for each service', () => {
    const addresses = serviceAddresses({
      transcription: 'http://127.0.0.1:8787',
      gateway: 'http://127.0.0.1:8788',
    });
    expect(addresses.transcriptionUrlUs.startedWith).toEqual({
      url: 'http://127.0.0.1:8787',
      variable: 'VERBATIM_TRANSCRIPTION_URL',
    });
    expect(addresses.transcriptionUrlEu.startedWith).toEqual(addresses.transcriptionUrlUs.startedWith);
    expect(addresses.gatewayUrl.startedWith).toEqual({
      url: 'http://127.0.0.1:8788',
      variable: 'VERBATIM_GATEWAY_URL',
    });
    expect(addresses.catalogUrl.startedWith).toBeNull();
  });

  it('takes an empty variable for none, as the services do, and names each service’s own address', () => {
    const addresses = serviceAddresses({ transcription: '', catalog: '' });
    expect(addresses.transcriptionUrlUs).toEqual({
      startedWith: null,
      serviceDefault: 'https://api.assemblyai.com',
    });
    expect(addresses.transcriptionUrlEu.serviceDefault).toBe('https://api.eu.assemblyai.com');
    expect(addresses.catalogUrl.startedWith).toBeNull();
  });
});
