// One language per country for the exit IP's country: the locale most of its
// web users have (the vendor's wrapper keeps a similar table, research §1.8).
// Countries not listed fall back to en-US.
const LOCALES: Record<string, string> = {
  US: 'en-US', GB: 'en-GB', CA: 'en-CA', AU: 'en-AU', NZ: 'en-NZ', IE: 'en-IE', ZA: 'en-ZA', IN: 'en-IN', SG: 'en-SG',
  PH: 'en-PH', NG: 'en-NG', KE: 'en-KE', GH: 'en-GH', PK: 'en-PK', MY: 'ms-MY', JM: 'en-JM', MT: 'en-MT',
  DE: 'de-DE', AT: 'de-AT', CH: 'de-CH', LI: 'de-LI', LU: 'fr-LU',
  FR: 'fr-FR', BE: 'fr-BE', MC: 'fr-MC', SN: 'fr-SN', CI: 'fr-CI', CM: 'fr-CM', MA: 'fr-MA', DZ: 'ar-DZ', TN: 'ar-TN',
  ES: 'es-ES', MX: 'es-MX', AR: 'es-AR', CO: 'es-CO', CL: 'es-CL', PE: 'es-PE', VE: 'es-VE', EC: 'es-EC', GT: 'es-GT',
  CU: 'es-CU', BO: 'es-BO', DO: 'es-DO', HN: 'es-HN', PY: 'es-PY', SV: 'es-SV', NI: 'es-NI', CR: 'es-CR', PA: 'es-PA',
  UY: 'es-UY', PR: 'es-PR',
  PT: 'pt-PT', BR: 'pt-BR', AO: 'pt-AO', MZ: 'pt-MZ',
  IT: 'it-IT', SM: 'it-SM', NL: 'nl-NL', SE: 'sv-SE', NO: 'nb-NO', DK: 'da-DK', FI: 'fi-FI', IS: 'is-IS',
  PL: 'pl-PL', CZ: 'cs-CZ', SK: 'sk-SK', HU: 'hu-HU', RO: 'ro-RO', MD: 'ro-MD', BG: 'bg-BG', GR: 'el-GR', CY: 'el-CY',
  HR: 'hr-HR', SI: 'sl-SI', RS: 'sr-RS', BA: 'bs-BA', ME: 'sr-ME', MK: 'mk-MK', AL: 'sq-AL', XK: 'sq-XK',
  EE: 'et-EE', LV: 'lv-LV', LT: 'lt-LT', UA: 'uk-UA', BY: 'be-BY', RU: 'ru-RU', KZ: 'kk-KZ', UZ: 'uz-UZ',
  GE: 'ka-GE', AM: 'hy-AM', AZ: 'az-AZ', TR: 'tr-TR', IL: 'he-IL', IR: 'fa-IR', IQ: 'ar-IQ', SA: 'ar-SA', AE: 'ar-AE',
  QA: 'ar-QA', KW: 'ar-KW', BH: 'ar-BH', OM: 'ar-OM', JO: 'ar-JO', LB: 'ar-LB', SY: 'ar-SY', EG: 'ar-EG', LY: 'ar-LY',
  SD: 'ar-SD', YE: 'ar-YE',
  CN: 'zh-CN', TW: 'zh-TW', HK: 'zh-HK', MO: 'zh-MO', JP: 'ja-JP', KR: 'ko-KR', VN: 'vi-VN', TH: 'th-TH', ID: 'id-ID',
  BD: 'bn-BD', LK: 'si-LK', NP: 'ne-NP', MM: 'my-MM', KH: 'km-KH', LA: 'lo-LA', MN: 'mn-MN', AF: 'fa-AF',
  ET: 'am-ET', TZ: 'sw-TZ', UG: 'en-UG', RW: 'rw-RW',
};

export const FALLBACK_LOCALE = 'en-US';

export function localeForCountry(countryCode: string | null): string {
  return (countryCode && LOCALES[countryCode.toUpperCase()]) || FALLBACK_LOCALE;
}

/** `de-DE` → `de-DE,de`: what navigator.languages and Accept-Language start with. */
export function acceptLanguages(locale: string): string {
  const language = locale.split('-')[0]!;
  return language === locale ? locale : `${locale},${language}`;
}
