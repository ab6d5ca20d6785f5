/** Query parameters that only track a click and never change what a page shows. */
const TRACKING_PARAMETERS = new Set([
  'gclid', 'gclsrc', 'dclid', 'gbraid', 'wbraid', 'fbclid', 'msclkid', 'yclid', 'twclid', 'ttclid', 'li_fat_id',
  'igshid', 'mc_cid', 'mc_eid', '_ga', '_gl', '_hsenc', '_hsmi', 'mkt_tok', 'oly_anon_id', 'oly_enc_id',
  'vero_id', 'rb_clickid', 's_cid', 'ref_src', 'ref_url', 'spm', 'srsltid',
]);
const TRACKING_PREFIXES = ['utm_', 'pk_', 'hsa_', 'piwik_', 'matomo_'];

/** Whether a (decoded) parameter name only tracks a click: canonical URLs leave it out. */
export function isTracking(name: string): boolean {
  const lower = name.toLowerCase();
  if (TRACKING_PARAMETERS.has(lower)) return true;
  for (const prefix of TRACKING_PREFIXES) if (lower.startsWith(prefix)) return true;
  return false;
}

/** The order of canonical query parameters: by name, then by value. */
export function compareParameters(nameA: string, valueA: string, nameB: string, valueB: string): number {
  return nameA === nameB ? valueA.localeCompare(valueB) : nameA.localeCompare(nameB);
}
