import { openDatabase } from '../library/database';
import { Microphone } from './microphone';
import { rawPcmRecordingInput } from './raw-pcm-input';
import { Recorder } from './recorder';
import { RecordingMarks } from '../library/recording-marks';
import { Recordings } from '../library/recordings';

/**
 * The Record view's recorder, run as its own process so a test can give it a real disk (a small
 * tmpfs in a private mount namespace): it records sixty seconds of a known pattern (16 kHz mono,
 * a hundred times faster than real time) into `<folder>/recordings`, its library in
 * `<folder>/library.sqlite`, and prints the status it ends with and the library's recordings
 * as JSON once it has stopped on its own.
 */
/** Sixty seconds of a rising pattern, no two neighbouring frames alike. */
const sound = Buffer.alloc(16_000 * 60 * 2);
for (let frame = 0; frame < sound.length / 2; frame++) sound.writeInt16LE((frame * 7) & 0x7fff, frame * 2);

async function main(folder: string): Promise<void> {
  const db = openDatabase(`${folder}/library.sqlite`);
  const recordings = new Recordings(db);
  const recorder = new Recorder({
    input: rawPcmRecordingInput({ pcm: sound, sampleRate: 16_000, speed: 100 }),
    recordings,
    marks: new RecordingMarks(db),
    folder: () => `${folder}/recordings`,
    microphone: new Microphone(),
    freeBytes: () => Promise.resolve(1e12),
  });
  const ended = new Promise<unknown>((resolveEnded) =>
    recorder.events.subscribe((event) => {
      if (event.type === 'status' && event.status.ended) resolveEnded(event.status);
    }),
  );
  await recorder.start({ deviceId: null, channels: 1, sampleRate: 16_000 });
  const status = await ended;
  process.stdout.write(JSON.stringify({ status, listed: await recordings.list() }));
  db.close();
}

if (process.argv[2]) void main(process.argv[2]);
