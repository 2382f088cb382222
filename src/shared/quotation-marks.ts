import { type LanguageCode, isLanguageCode } from './transcription/language-codes';

/**
 * The quotation marks a quote is printed in, as its transcript's language prints them: the
 * reader's Copy quote, the Quotes and Stories views and every story export all go through
 * `inQuotationMarks`, so a quote reads the same on every surface. The words between the marks
 * are never touched.
 *
 * One pair per language the transcription service knows (language-codes.ts): the primary marks
 * of the language's own typography (the press convention where several are in use). French,
 * Breton and Haitian Creole set their guillemets off with a no-break space, which keeps a mark
 * from being left alone at the end of a line.
 */
export interface QuotationMarks {
  open: string;
  close: string;
}

const english: QuotationMarks = { open: '“', close: '”' };
const guillemets: QuotationMarks = { open: '«', close: '»' };
const spacedGuillemets: QuotationMarks = { open: '«\u00a0', close: '\u00a0»' };
const german: QuotationMarks = { open: '„', close: '“' };
const lowHigh: QuotationMarks = { open: '„', close: '”' };
const rightBoth: QuotationMarks = { open: '”', close: '”' };
const reversed: QuotationMarks = { open: '»', close: '«' };

export const quotationMarksByLanguage: Readonly<Record<LanguageCode, QuotationMarks>> = {
  en: english,
  en_au: english,
  en_uk: english,
  en_us: english,
  es: guillemets,
  fr: spacedGuillemets,
  de: german,
  de_ch: guillemets,
  it: guillemets,
  pt: guillemets,
  nl: english,
  af: english,
  sq: guillemets,
  am: guillemets,
  ar: guillemets,
  hy: guillemets,
  as: english,
  az: guillemets,
  ba: guillemets,
  eu: guillemets,
  be: guillemets,
  bn: english,
  bs: rightBoth,
  br: spacedGuillemets,
  bg: german,
  my: english,
  ca: guillemets,
  zh: english,
  hr: lowHigh,
  cs: german,
  da: reversed,
  et: german,
  fo: german,
  fi: rightBoth,
  gl: guillemets,
  ka: german,
  el: guillemets,
  gu: english,
  ht: spacedGuillemets,
  ha: english,
  haw: english,
  he: lowHigh,
  hi: english,
  hu: lowHigh,
  is: german,
  id: english,
  ja: { open: '「', close: '」' },
  jw: english,
  kn: english,
  kk: guillemets,
  km: guillemets,
  ko: english,
  lo: english,
  la: english,
  lv: guillemets,
  ln: english,
  lt: german,
  lb: german,
  mk: german,
  mg: guillemets,
  ms: english,
  ml: english,
  mt: english,
  mi: english,
  mr: english,
  mn: guillemets,
  ne: english,
  no: guillemets,
  nn: guillemets,
  oc: guillemets,
  pa: english,
  ps: guillemets,
  fa: guillemets,
  pl: lowHigh,
  ro: lowHigh,
  ru: guillemets,
  sa: english,
  sr: german,
  sn: english,
  sd: english,
  si: english,
  sk: german,
  sl: german,
  so: english,
  su: english,
  sw: english,
  sv: rightBoth,
  tl: english,
  tg: guillemets,
  ta: english,
  tt: guillemets,
  te: english,
  th: english,
  bo: { open: '《', close: '》' },
  tr: english,
  tk: english,
  uk: guillemets,
  ur: english,
  uz: guillemets,
  vi: english,
  cy: english,
  yi: german,
  yo: english,
};

/**
 * The marks for a transcript's language code as the service or the library writes it ("fr",
 * "en_us", "de-CH", "pt_br"): the code itself, else its base language, else English (the app's
 * own language) for a transcript whose language is not known.
 */
export function quotationMarks(languageCode: string | null | undefined): QuotationMarks {
  const code = (languageCode ?? '').trim().toLowerCase().replace(/-/g, '_');
  if (isLanguageCode(code)) return quotationMarksByLanguage[code];
  const base = code.split('_')[0] ?? '';
  return isLanguageCode(base) ? quotationMarksByLanguage[base] : english;
}

/** “The words” (or « les mots », „die Wörter“…), the words exactly as given. */
export function inQuotationMarks(text: string, languageCode: string | null | undefined): string {
  const { open, close } = quotationMarks(languageCode);
  return `${open}${text}${close}`;
}
