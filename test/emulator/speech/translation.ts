/**
 * Translation (speech_understanding.request.translation) by word glossary: common words are swapped
 * for the target language's, everything else (names, numbers) is kept. Not a real translation, but
 * deterministic and visibly in the target language. `formal` picks the formal "you". The response
 * shape follows the real service: `translated_texts` maps each target code to the translated text,
 * and with match_original_utterance each utterance carries its own `translated_texts`.
 */

type Glossary = Record<string, string>;

const GLOSSARIES: Record<string, Glossary> = {
  es: {
    the: 'el',
    a: 'un',
    and: 'y',
    or: 'o',
    of: 'de',
    to: 'a',
    in: 'en',
    for: 'para',
    with: 'con',
    is: 'es',
    are: 'son',
    was: 'era',
    it: 'eso',
    we: 'nosotros',
    they: 'ellos',
    i: 'yo',
    this: 'esto',
    that: 'que',
    good: 'buenos',
    morning: 'días',
    thank: 'gracias',
    thanks: 'gracias',
    ferry: 'transbordador',
    contract: 'contrato',
    mayor: 'alcaldesa',
    council: 'ayuntamiento',
    city: 'ciudad',
    new: 'nuevo',
    first: 'primer',
    every: 'cada',
    hour: 'hora',
    people: 'gente',
    service: 'servicio',
    boats: 'barcos',
    yes: 'sí',
    great: 'genial',
    today: 'hoy',
    office: 'oficina',
    questions: 'preguntas',
    message: 'mensaje',
    island: 'isla',
    price: 'precio',
    best: 'mejor',
    time: 'tiempo',
    million: 'millones',
    deal: 'acuerdo',
  },
  fr: {
    the: 'le',
    a: 'un',
    and: 'et',
    or: 'ou',
    of: 'de',
    to: 'à',
    in: 'dans',
    for: 'pour',
    with: 'avec',
    is: 'est',
    are: 'sont',
    was: 'était',
    it: 'il',
    we: 'nous',
    they: 'ils',
    i: 'je',
    this: 'ce',
    that: 'que',
    good: 'bon',
    morning: 'matin',
    thank: 'merci',
    thanks: 'merci',
    ferry: 'ferry',
    contract: 'contrat',
    mayor: 'maire',
    council: 'conseil',
    city: 'ville',
    new: 'nouveau',
    first: 'premier',
    every: 'chaque',
    hour: 'heure',
    people: 'gens',
    service: 'service',
    boats: 'bateaux',
    yes: 'oui',
    great: 'super',
    today: "aujourd'hui",
    office: 'bureau',
    questions: 'questions',
    message: 'message',
    island: 'île',
    price: 'prix',
    best: 'meilleur',
    time: 'temps',
    million: 'millions',
    deal: 'accord',
  },
  de: {
    the: 'die',
    a: 'ein',
    and: 'und',
    or: 'oder',
    of: 'von',
    to: 'zu',
    in: 'in',
    for: 'für',
    with: 'mit',
    is: 'ist',
    are: 'sind',
    was: 'war',
    it: 'es',
    we: 'wir',
    they: 'sie',
    i: 'ich',
    this: 'dies',
    that: 'dass',
    good: 'guten',
    morning: 'Morgen',
    thank: 'danke',
    thanks: 'danke',
    ferry: 'Fähre',
    contract: 'Vertrag',
    mayor: 'Bürgermeisterin',
    council: 'Rat',
    city: 'Stadt',
    new: 'neue',
    first: 'erste',
    every: 'jede',
    hour: 'Stunde',
    people: 'Leute',
    service: 'Dienst',
    boats: 'Boote',
    yes: 'ja',
    great: 'toll',
    today: 'heute',
    office: 'Büro',
    questions: 'Fragen',
    message: 'Nachricht',
    island: 'Insel',
    price: 'Preis',
    best: 'beste',
    time: 'Zeit',
    million: 'Millionen',
    deal: 'Vertrag',
  },
};

const YOU: Record<string, { formal: string; informal: string }> = {
  es: { formal: 'usted', informal: 'tú' },
  fr: { formal: 'vous', informal: 'tu' },
  de: { formal: 'Sie', informal: 'du' },
};

function translateToken(token: string, language: string, formal: boolean): string {
  const match = /^([^\p{L}]*)([\p{L}']+)([^\p{L}]*)$/u.exec(token);
  if (match === null) return token;
  const [, before = '', word = '', after = ''] = match;
  const lower = word.toLowerCase();
  const you = YOU[language];
  const translated =
    lower === 'you' && you !== undefined
      ? formal
        ? you.formal
        : you.informal
      : GLOSSARIES[language]?.[lower];
  if (translated === undefined) return token;
  const cased = /^\p{Lu}/u.test(word) ? translated.charAt(0).toUpperCase() + translated.slice(1) : translated;
  return before + cased + after;
}

function translateText(text: string, language: string, formal: boolean): string {
  return text
    .split(' ')
    .map((token) => translateToken(token, language, formal))
    .join(' ');
}

export function translateAll(
  text: string,
  languages: readonly string[],
  formal: boolean,
): Record<string, string> {
  return Object.fromEntries(languages.map((language) => [language, translateText(text, language, formal)]));
}
