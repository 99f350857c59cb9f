import { REASONS, type ReasonCategory } from '../../rules.ts';

/**
 * Obstacle categories named in a piece of free text: a model's reason or an annotator's note.
 * This is the offline rule judge's vocabulary. It is a keyword map, not language understanding:
 * it does not see negation ("there are no stairs" still names stairs) and it only knows the
 * words below. The words were collected from the notes of the real CapNav release (all 101
 * distinct not-traversable notes, typos included) and from the obstacle names of the paper (§4.4).
 *
 * Which category a phrase belongs to follows the annotators' usage, not the words' surface:
 * "door too narrow" is a narrow passage (the door is open, it is too small), "door sill" is a
 * step, only "cannot open the door" / "closed door" is the door category; furniture that
 * "blocks the way" or "clutters" a passage is a narrow passage (CapNav §4.4: "narrow pathways,
 * usually caused by narrow doors or furniture clutter"); a rug too thick to cross is a step.
 */
const PATTERNS: [ReasonCategory, RegExp][] = [
  ['stairs', /stair|(?:climb|ascend|descend|go up|go down|up|down) (?:the |a few |some |several )?steps\b|go (?:up|down)\s*[/.]\s*(?:up|down)|flight of/],
  [
    'step',
    /\bsills?\b|threshold|\bstep\b|height diff|level diff|height change|level change|\bcurb|\bkerb|\bledge|\bbump|raised|elevated|too high|\blip\b|(?:rug|carpet|mat)s?\b[^.;]{0,25}thick|thick[^.;]{0,10}(?:rug|carpet|mat)/,
  ],
  [
    'narrow',
    /narrow|narow|nrro|\btight\b|clearance|\bwidth\b|wide enough|not wide|too small|squeez|(?:doesn'?t|does not|won'?t|will not|cannot|can'?t|unable to|not) fit|clutter|obstruct|block(?:s|ed|ing)? (?:the|th[wa]?) ?(?:way|path|passage|route)|(?:in|on) the way|(?:not|no|insufficient) (?:enough )?(?:space|room|gap) (?:between|to pass|for)|space between|gap between|furnitur|will stop|prevents? entering/,
  ],
  [
    'turning',
    /turning|turn (?:space|radius|circle|room|area)|(?:space|room) to turn|\bto turn\b|(?:cannot|can'?t|unable to|not able to|no way to) (?:turn|rotate|pivot|manoeuvre|maneuver)|manoeuvr|maneuver|\bpivot/,
  ],
  [
    'door',
    /(?:cannot|can'?t|could not|unable to|not able to|inability to|no way to|does not|doesn'?t|without) (?:open|operate|push|pull|unlock)(?:ing)? (?:the |a |any )?(?:doors?|gates?)|(?:closed|locked|shut) (?:doors?|gates?)|(?:doors?|gates?) (?:is |are )?(?:closed|locked|shut)|open(?:ing)? doors?/,
  ],
  ['lift', /elevator|\blifts?\b/],
  ['other', /terrain|steep|slope|\bramp|gravel|grass|uneven|rough|slipper|\bwet\b|invalid node|sewage|mud|\bsand/],
];

/**
 * Stairs used as a landmark ("at the stair landing", "the hallway next to the stairs") say where
 * the obstacle is, not what it is; they are removed before matching.
 */
const STAIRS_AS_PLACE = /stair[- ]?(?:landing|side|well)|stairside|(?:next to|near|beside|by|under|behind) the stairs?|between (?:the )?stairs? and/g;

const memo = new Map<string, readonly ReasonCategory[]>();
const MEMO_LIMIT = 50_000;

/**
 * The categories named in `text`, in the canonical order of REASONS (each at most once).
 * Remembered per text: a scoring run asks about the same notes and reasons many times.
 */
export function categoriesOf(text: string): ReasonCategory[] {
  let hit = memo.get(text);
  if (!hit) {
    const t = text.toLowerCase().replace(/\s+/g, ' ').replace(STAIRS_AS_PLACE, ' ');
    const found = new Set<ReasonCategory>();
    if (t.trim() !== '') for (const [cat, re] of PATTERNS) if (re.test(t)) found.add(cat);
    hit = REASONS.filter((r) => found.has(r));
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(text, hit);
  }
  return [...hit];
}

/** Categories of several texts together. */
export function categoriesOfAll(texts: readonly string[]): ReasonCategory[] {
  const found = new Set<ReasonCategory>();
  for (const t of texts) for (const c of categoriesOf(t)) found.add(c);
  return REASONS.filter((r) => found.has(r));
}

export function sortCategories(cats: Iterable<ReasonCategory>): ReasonCategory[] {
  const s = new Set(cats);
  return REASONS.filter((r) => s.has(r));
}

const INABILITY = "(?:cannot|can'?t|can not|unable to|not able to|inability to|could not|couldn'?t|is not capable of|isn'?t able to)";
const CANNOT_OPEN = new RegExp(`${INABILITY}\\s+(?:open|unlock|(?:operate|push|pull)[^.;]{0,20}(?:door|gate))`);
const CANNOT_LIFT = new RegExp(`${INABILITY}\\s+(?:use|operate|take|ride|call|press)[^.;]{0,20}(?:elevator|lift)`);

/**
 * Abilities a reason says the agent lacks, for spotting ability hallucination: stairs whenever
 * the reason names stairs as the obstacle (the agent must not use them), doors only when it says
 * the agent cannot open one (a "closed door" claim is about the scene, not the agent), lifts only
 * when it says the agent cannot use one.
 */
export function deniedAbilities(text: string): ('stairs' | 'door' | 'lift')[] {
  const out: ('stairs' | 'door' | 'lift')[] = [];
  if (categoriesOf(text).includes('stairs')) out.push('stairs');
  if (!/open|unlock|door|gate|elevator|lift/i.test(text)) return out;
  const t = text.toLowerCase().replace(/\s+/g, ' ');
  if (CANNOT_OPEN.test(t)) out.push('door');
  if (CANNOT_LIFT.test(t)) out.push('lift');
  return out;
}
