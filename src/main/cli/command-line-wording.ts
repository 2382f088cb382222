/**
 * The core's messages speak to someone in the app ("Check the key in Settings", "say to replace
 * it"). On the command line the same facts point at the environment variables and options that
 * do it instead.
 */
const replacements: [RegExp, string][] = [
  [
    /No catalog key is set\. Enter your catalog key in Settings, under Model catalog, to ([^.]+)\./g,
    'No catalog key is set. Set VERBATIM_CATALOG_KEY to $1.',
  ],
  [/Check the catalog key in Settings, under Model catalog\./g, 'Check VERBATIM_CATALOG_KEY.'],
  [
    /the catalog refused the management key in Settings\. Check it under Model catalog\./g,
    'the catalog refused VERBATIM_MANAGEMENT_KEY. Check it.',
  ],
  [
    /add a management key in Settings, under Model catalog\./g,
    'set VERBATIM_MANAGEMENT_KEY to a management key.',
  ],
  [/Check the (?:transcription )?key in Settings\./g, 'Check VERBATIM_API_KEY.'],
  [/Add your transcription API key in Settings/g, 'Set VERBATIM_API_KEY'],
  [/choose another model or fallback models in Settings\./g, 'choose another model with --model.'],
  [/choose another data folder in Settings\./g, 'choose another data folder with VERBATIM_DATA_DIR.'],
  // A file already there: the app asks before replacing it, a command is told with --force.
  [/, or say to replace (it|them)\./g, ', or add --force to replace $1.'],
];

const addressVariables: [RegExp, string][] = [
  [/transcription service's address/, 'VERBATIM_TRANSCRIPTION_URL'],
  [/model catalog's address/, 'VERBATIM_CATALOG_URL'],
  [/language-model gateway's address|gateway's address/, 'VERBATIM_GATEWAY_URL'],
  [/voice (?:agent|assistant)'s address/, 'VERBATIM_VOICE_URL'],
];

export function inCommandLineTerms(message: string): string {
  let text = message;
  for (const [pattern, replacement] of replacements) text = text.replace(pattern, replacement);
  if (/Check the address in Settings/.test(text)) {
    const variable =
      addressVariables.find(([pattern]) => pattern.test(text))?.[1] ?? 'the service address variables';
    text = text.replace(/Check the address in Settings/g, `Check ${variable}`);
  }
  // A service that moved to another address (a redirect the key is not sent along).
  text = text.replace(
    /If the ([a-z -]+) is now at (\S+), change its address in Settings\./g,
    (said, service: string, address: string) => {
      const variable = addressVariables.find(([pattern]) => pattern.test(`${service}'s address`))?.[1];
      return variable ? `If the ${service} is now at ${address}, set ${variable} to it.` : said;
    },
  );
  return text;
}
