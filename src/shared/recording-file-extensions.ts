/**
 * The recordings Verbatim offers to open from the desktop ("Open with Verbatim", a file
 * dropped on the app's icon). electron-builder.yml registers the same extensions; a test
 * keeps the two lists equal. The service itself takes more; these are what journalists record in.
 */
export const audioExtensions = [
  'mp3',
  'm4a',
  'wav',
  'aac',
  'ogg',
  'oga',
  'opus',
  'flac',
  'wma',
  'amr',
  'aiff',
  'aif',
];
export const videoExtensions = ['mp4', 'm4v', 'mov', 'webm', 'mkv', 'wmv'];

/** Whether a file name ends with one of those extensions (any case). */
export function hasRecordingExtension(name: string): boolean {
  const extension = /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase();
  return (
    extension !== undefined && (audioExtensions.includes(extension) || videoExtensions.includes(extension))
  );
}
