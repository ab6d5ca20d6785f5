/**
 * Query parameters that only track a click and never change what a page shows. Matomo's `pk_`/`mtm_` and HubSpot
 * ads' `hsa_` parameters are named one by one: sites name their own content by those prefixes too
 * (`package.php?pk_id=7`, `?hsa_fsa_eligible=true`), and two such pages must stay two results.
 */
const TRACKING_PARAMETERS = new Set([
  'gclid', 'gclsrc', 'dclid', 'gbraid', 'wbraid', 'fbclid', 'msclkid', 'yclid', 'twclid', 'ttclid', 'li_fat_id',
  'igshid', 'mc_cid', 'mc_eid', '_ga', '_gl', '_hsenc', '_hsmi', 'mkt_tok', 'oly_anon_id', 'oly_enc_id',
  'vero_id', 'rb_clickid', 's_cid', 'ref_src', 'ref_url', 'spm', 'srsltid',
  'pk_campaign', 'pk_kwd', 'pk_keyword', 'pk_source', 'pk_medium', 'pk_content', 'pk_cid', 'pk_group', 'pk_placement', 'pk_vid',
  'mtm_campaign', 'mtm_kwd', 'mtm_keyword', 'mtm_source', 'mtm_medium', 'mtm_content', 'mtm_cid', 'mtm_group', 'mtm_placement',
  'hsa_acc', 'hsa_cam', 'hsa_grp', 'hsa_ad', 'hsa_src', 'hsa_tgt', 'hsa_kw', 'hsa_mt', 'hsa_net', 'hsa_ver', 'hsa_la', 'hsa_ol',
]);
/** Prefixes that name a tracker itself: no site's content parameter starts with them. */
const TRACKING_PREFIXES = ['utm_', 'piwik_', 'matomo_'];

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
